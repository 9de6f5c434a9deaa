/// Choices made when building a ``Conversation``.
public struct ConversationOptions: Sendable, Equatable {
    /// Show the records from before a compaction (still in the file) followed by a marker,
    /// instead of starting at the compaction as Claude Code's resume view does.
    public var includePreCompactionHistory: Bool

    /// Creates options; by default the full history is shown.
    public init(includePreCompactionHistory: Bool = true) {
        self.includePreCompactionHistory = includePreCompactionHistory
    }
}
