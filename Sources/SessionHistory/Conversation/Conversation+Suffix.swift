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

    /// The conversation from the entry holding the record `uuid` on (a prompt, a response chunk,
    /// a tool result — shown with its call — or a compaction), or nil when no entry holds it.
    public func suffix(fromRecord uuid: String) -> Conversation? {
        let index = entries.firstIndex { entry in
            switch entry {
            case .user(let turn): turn.uuid == uuid
            case .assistant(let turn): turn.recordUuids.contains(uuid) || turn.toolResults.values.contains { $0.recordUuid == uuid }
            case .compaction(let marker): marker.uuid == uuid
            }
        }
        guard let index else { return nil }
        var copy = self
        copy.entries = Array(entries[index...])
        return copy
    }
}
