/// Token counts of one model response (the `message.usage` object), or a sum of several.
public struct TokenUsage: Sendable, Equatable, Hashable {
    /// Uncached input tokens.
    public var inputTokens: Int
    /// Generated tokens.
    public var outputTokens: Int
    /// Input tokens written to the prompt cache.
    public var cacheCreationInputTokens: Int
    /// Input tokens read from the prompt cache.
    public var cacheReadInputTokens: Int

    /// Creates a usage value; all counts default to zero.
    public init(inputTokens: Int = 0, outputTokens: Int = 0, cacheCreationInputTokens: Int = 0, cacheReadInputTokens: Int = 0) {
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.cacheCreationInputTokens = cacheCreationInputTokens
        self.cacheReadInputTokens = cacheReadInputTokens
    }

    /// All four counts added.
    public var totalTokens: Int { inputTokens + outputTokens + cacheCreationInputTokens + cacheReadInputTokens }

    /// The sum of two usages.
    public static func + (lhs: TokenUsage, rhs: TokenUsage) -> TokenUsage {
        TokenUsage(
            inputTokens: lhs.inputTokens + rhs.inputTokens,
            outputTokens: lhs.outputTokens + rhs.outputTokens,
            cacheCreationInputTokens: lhs.cacheCreationInputTokens + rhs.cacheCreationInputTokens,
            cacheReadInputTokens: lhs.cacheReadInputTokens + rhs.cacheReadInputTokens
        )
    }

    /// Adds `rhs` into `lhs`.
    public static func += (lhs: inout TokenUsage, rhs: TokenUsage) { lhs = lhs + rhs }

    /// Each count's maximum of the two: merges the running usage snapshots written on the chunks
    /// of one streamed response, where only the last chunk is final.
    public func fieldwiseMaximum(_ other: TokenUsage) -> TokenUsage {
        TokenUsage(
            inputTokens: max(inputTokens, other.inputTokens),
            outputTokens: max(outputTokens, other.outputTokens),
            cacheCreationInputTokens: max(cacheCreationInputTokens, other.cacheCreationInputTokens),
            cacheReadInputTokens: max(cacheReadInputTokens, other.cacheReadInputTokens)
        )
    }
}
