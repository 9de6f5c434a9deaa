/// Token counts of one model response (the `message.usage` object), or a sum of several.
///
/// Sums saturate at `Int.max` instead of trapping: the counts come from files anyone can write.
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

    /// All four counts added (saturating).
    public var totalTokens: Int {
        [outputTokens, cacheCreationInputTokens, cacheReadInputTokens].reduce(inputTokens, Int.saturatingSum)
    }

    /// The sum of two usages, each count saturating at the bounds of `Int`.
    public static func + (lhs: TokenUsage, rhs: TokenUsage) -> TokenUsage {
        TokenUsage(
            inputTokens: .saturatingSum(lhs.inputTokens, rhs.inputTokens),
            outputTokens: .saturatingSum(lhs.outputTokens, rhs.outputTokens),
            cacheCreationInputTokens: .saturatingSum(lhs.cacheCreationInputTokens, rhs.cacheCreationInputTokens),
            cacheReadInputTokens: .saturatingSum(lhs.cacheReadInputTokens, rhs.cacheReadInputTokens)
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

extension Int {
    /// `lhs + rhs`, or `Int.max` / `Int.min` when the sum does not fit.
    static func saturatingSum(_ lhs: Int, _ rhs: Int) -> Int {
        let (sum, overflow) = lhs.addingReportingOverflow(rhs)
        guard overflow else { return sum }
        return rhs > 0 ? .max : .min
    }
}
