import SSHClient

/// What Claude Code saved of a conversation on the box: its session file and the room left
/// beside it.
///
/// Claude Code says nothing when it cannot write its session file: on a full disk it leaves the
/// file empty, or without the last turn, while the conversation goes on. The session is then
/// neither listed nor resumable, so a client looks once a turn ended (``ClaudeConversation/savedSession()``).
public struct ClaudeSessionSave: Sendable, Equatable {
    /// The conversation's session.
    public let sessionID: String
    /// The session file on the box, when there is one.
    public let path: String?
    /// The file's size in bytes; 0 when there is none.
    public let bytes: Int
    /// The space left on the file system of the session folders, in KiB, where `df` said.
    public let freeKiB: Int?

    /// Makes the record of a look.
    public init(sessionID: String, path: String?, bytes: Int, freeKiB: Int?) {
        self.sessionID = sessionID
        self.path = path
        self.bytes = bytes
        self.freeKiB = freeKiB
    }

    /// Whether Claude Code may have lost what it wrote: no space is left where its session
    /// folders are (every write of the turn could have failed, the file's own size says nothing
    /// of that).
    public var mayBeLost: Bool { freeKiB == 0 }

    /// The file the box holds, or the session id when there is none.
    public var shownName: String { path ?? "session \(sessionID)" }

    /// The script: `$1` the session id, then the session folders (`projects` of each Claude
    /// data root). Prints the file's size, the free KiB of the first folder that exists, and the
    /// file's path, a line each (empty when unknown).
    static let script = RemoteScript(
        step: "checking the saved session",
        body: #"""
            id=$1; shift
            f='' s=0 d=''
            for p do
              [ -d "$p" ] || continue
              [ -n "$d" ] || d=$p
              for g in "$p"/*/"$id.jsonl"; do
                if [ -f "$g" ]; then f=$g d=$p s=$(wc -c <"$g" | tr -d ' '); break 2; fi
              done
            done
            a=''
            [ -z "$d" ] || a=$(df -Pk "$d" 2>/dev/null | awk 'NR == 2 { print $4 }')
            printf '%s\n%s\n%s\n' "$s" "$a" "$f"
            """#)

    /// Reads the script's three lines.
    static func parse(_ output: String, sessionID: String) -> ClaudeSessionSave {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func line(_ index: Int) -> String { index < lines.count ? lines[index] : "" }
        return ClaudeSessionSave(
            sessionID: sessionID, path: line(2).isEmpty ? nil : line(2), bytes: Int(line(0)) ?? 0, freeKiB: Int(line(1)))
    }
}

extension ClaudeConversation {
    /// What Claude Code has saved of this conversation on the box (see ``ClaudeSessionSave``);
    /// nil before Claude Code said which session it is.
    public func savedSession() async throws -> ClaudeSessionSave? {
        guard let sessionID else { return nil }
        let folders = options.locations.claudeProjectFolders.map(RemoteScript.Argument.path)
        let result = try await ClaudeSessionSave.script.run(on: connection, [.word(sessionID)] + folders, timeout: .seconds(10))
        return ClaudeSessionSave.parse(result.stdoutText, sessionID: sessionID)
    }
}
