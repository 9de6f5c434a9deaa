extension Conversation {
    /// The conversation from its `count`-th last message on (user turns and responses; the
    /// compaction markers among them kept). Usage and subagents are left as they are.
    public func suffix(messages count: Int) -> Conversation {
        var kept = 0
        var index = entries.count
        while index > 0, kept < count {
            index -= 1
            if case .compaction = entries[index] { continue }
            kept += 1
        }
        var copy = self
        copy.entries = Array(entries[index...])
        return copy
    }
}
