/// Which record `type`s this module knows: the ones it decodes, and the ones Claude Code writes
/// that it keeps as ``RecordKind/unknown`` on purpose because nothing rws shows depends on them.
///
/// A `type` in neither set is new to rws: it is kept raw, changes nothing rws shows, and is named
/// by ``RecordTypeCensus`` (`rws record-types`, `rws history -v`); `scripts/test` prints what a
/// newer Claude Code writes that the pinned one does not.
package enum SessionRecordTypes {
    /// The `type`s decoded into a ``RecordKind`` other than `unknown`.
    package static let decoded: Set<String> = Set(
        [
            "user", "assistant", "system", "progress", "attachment", "summary", "file-history-snapshot",
            "queue-operation", "cost-state",
        ] + MetadataKind.allCases.map(\.rawValue))

    /// Known `type`s kept as raw records, with why rws does not need them
    /// (see docs/session-history.md).
    package static let ignored: [String: String] = [
        "api-request-shape": "the shape (system prompt, tool schemas) of API requests, by hash: debugging data",
        "api-request-blob": "content-addressed pieces of API requests (system prompt, reminders): debugging data",
        "api-request": "one line per API request (id, query source, shape hash): no content, no usage",
        "atis-latch": "an internal feature latch written after each turn",
        "tools-used": "names of the tools used so far; the conversation has every call",
        "pr-link": "a pull request linked to the session",
        "agent-setting": "the agent a session was started with",
        "bridge-session": "remote-control bridge bookkeeping",
        "worktree-state": "the git worktree a session runs in",
        "frame-link": "links between desktop frames and sessions",
        "relocated": "a session moved to another project folder",
    ]

    /// Whether rws knows `type` (decoded or known-ignorable).
    package static func isKnown(_ type: String) -> Bool {
        decoded.contains(type) || ignored[type] != nil
    }
}
