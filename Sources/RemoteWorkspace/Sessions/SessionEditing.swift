import Foundation
import SSHClient
import SessionHistory

/// Renames and deletes sessions on the box.
enum SessionEditing {
    /// Why an edit script stopped.
    enum Exit: Int32, RemoteScriptExit {
        /// There is no session file at that path.
        case noSessionFile = 3
        /// The file kept changing: something is still writing it.
        case beingWritten = 4
        /// The box's disk is full; what the failed append left of the line was cut off again.
        case noSpace = 5
        /// The append failed for another reason (what the shell said is on stderr); what it left
        /// of the line was cut off again.
        case appendFailed = 6
    }

    /// The longest `custom-title` line written: the shell's `printf` writes a line this short
    /// with a single `write`, which `>>` (O_APPEND) puts at the end of the file in one piece.
    static let maximumLineBytes = 4_096

    /// Appends one line, but only to a file at rest: it must end with a newline and keep its size
    /// over one 0.2 s interval, checked again until about three seconds have passed
    /// (``Exit/beingWritten``). A writer that writes each line with one `write` is never
    /// glued to (O_APPEND appends whole buffers); one that writes a line in pieces is refused while
    /// it is writing, as long as its pieces come less than the interval apart. A failed append
    /// (a full disk: ``Exit/noSpace``) leaves no part of the line behind.
    static let appendScript = RemoteScript(
        step: "renaming the session", exits: Exit.self,
        body: #"""
            f=$1 line=$2 i=0 previous=
            [ -f "$f" ] || { printf 'no session file %s\n' "$f" >&2; exit 3; }
            while :; do
              size=$(stat -c %s -- "$f") || exit 3
              c=$(tail -c 1 -- "$f")
              [ -z "$c" ] && [ "$size" = "$previous" ] && break
              previous=$size
              i=$((i + 1))
              [ "$i" -gt 15 ] && exit 4
              sleep 0.2 2>/dev/null || sleep 1
            done
            if err=$(printf '%s\n' "$line" 2>&1 >>"$f"); then exit 0; fi
            free=$(df -Pk -- "${f%/*}" 2>/dev/null | awk 'NR == 2 { print $4 }')
            # A short write leaves part of the line: cut it off, so that the next record starts a line.
            [ "$(stat -c %s -- "$f")" -gt "$size" ] && [ -n "$(tail -c 1 -- "$f")" ] && truncate -s "$size" -- "$f"
            # Shells word a full disk differently (dash: "I/O error"): the disk's free space tells.
            case $free:$err in 0:* | *'No space left'* | *'Disk quota'*) exit 5 ;; esac
            printf '%s\n' "$err" >&2
            exit 6
            """#)

    /// Removes the session file and its `<id>/` folder (subagents, tool results), nothing else.
    static let removeScript = RemoteScript(
        step: "deleting the session", exits: Exit.self,
        body: #"""
            f=$1 d=$2
            [ -f "$f" ] || { printf 'no session file %s\n' "$f" >&2; exit 3; }
            rm -f -- "$f" && rm -rf -- "$d"
            """#)

    /// The record Claude Code's `/rename` writes.
    static func titleLine(title: String, sessionId: String) throws -> String {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw RemoteSessionError.invalidTitle(reason: "it is empty") }
        let line =
            #"{"type":"custom-title","customTitle":"# + JSONWriter.quoted(trimmed)
            + #","sessionId":"# + JSONWriter.quoted(sessionId) + "}"
        guard line.utf8.count <= maximumLineBytes else {
            throw RemoteSessionError.invalidTitle(reason: "it is longer than a record of \(maximumLineBytes) bytes allows")
        }
        return line
    }

    static func rename(_ listing: RemoteSessionListing, title: String, host: any ScriptHost) async throws {
        let line = try titleLine(title: title, sessionId: listing.id)
        do {
            _ = try await appendScript.run(on: host, [.path(listing.file.path), .word(line)], timeout: .seconds(30)) {
                switch $0.status.scriptExit(Exit.self) {
                case .beingWritten?: RemoteSessionError.sessionBeingWritten(path: listing.file.path)
                case .noSpace?: RemoteSessionError.noSpace(path: listing.file.path)
                default: appendScript.failure($0)
                }
            }
        } catch let lost as SSHError where lost.linkLossReason != nil {
            // The append is one write of a whole line, so the box holds the new title or not at
            // all; which, only a look can tell.
            throw RemoteSessionError.interrupted(
                operation: "renaming session \(listing.id)", reason: lost.linkLossReason ?? "\(lost)",
                boxState: "The session has its new title or still the one before, never part of a line. "
                    + "Run the same rename again: one more title line changes nothing else.")
        }
    }

    static func delete(_ listing: RemoteSessionListing, host: any ScriptHost) async throws {
        let id = listing.id
        guard !id.isEmpty, id != ".", id != "..", !id.contains("/"), listing.file.path.hasSuffix("/" + id + ".jsonl") else {
            throw RemoteSessionError.invalidName(id, reason: "not a session file name")
        }
        let folder = String(listing.file.path.dropLast(".jsonl".count))
        _ = try await removeScript.run(on: host, [.path(listing.file.path), .path(folder)], timeout: .seconds(60))
    }
}
