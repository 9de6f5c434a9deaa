/// How full the model's context window was on the last turn: the prompt the last response was
/// given (`input_tokens + cache_creation_input_tokens + cache_read_input_tokens` of its usage).
public struct ContextUse: Sendable, Equatable, Codable {
    /// Tokens of the last response's prompt.
    public var tokens: Int
    /// The model's context window when known: 200,000 for Claude models, 1,000,000 when the
    /// prompt was already larger than that (the 1M-context option, which the record does not name).
    public var window: Int?

    /// Creates a context use.
    public init(tokens: Int, window: Int?) {
        self.tokens = tokens
        self.window = window
    }

    /// The share of the window used, 0…1, when the window is known.
    public var fraction: Double? { window.map { Double(tokens) / Double(max(1, $0)) } }

    /// The context use of the last response in `records` that reports usage (API error lines
    /// and sidechain records excluded); `nil` when none does.
    public static func last(in records: [SessionRecord]) -> ContextUse? {
        for record in records.reversed() where !record.envelope.isSidechain {
            guard let message = record.assistant, !message.isSynthetic, let usage = message.usage else { continue }
            let (partial, overflow1) = usage.inputTokens.addingReportingOverflow(usage.cacheCreationInputTokens)
            let (tokens, overflow2) = partial.addingReportingOverflow(usage.cacheReadInputTokens)
            let total = overflow1 || overflow2 ? Int.max : tokens
            return ContextUse(tokens: total, window: window(model: message.model, tokens: total))
        }
        return nil
    }

    static func window(model: String?, tokens: Int) -> Int? {
        guard let model, model.hasPrefix("claude-") else { return nil }
        return tokens > 200_000 ? 1_000_000 : 200_000
    }
}
