import Foundation
import SessionHistory
import SSHClient

/// What a followed session brought.
public enum SessionFollowEvent: Sendable {
    /// A change to the conversation: a new entry, another chunk of a response, a title record.
    case conversation(ConversationEvent)
    /// The file was truncated or replaced: the conversation starts again from its first byte,
    /// with entry indexes from 0.
    case restarted(reason: String)
    /// The file is gone; following goes on and starts again if it comes back.
    case fileMissing
}

/// Follows a session file with one long-running remote loop: every `interval` it looks at the
/// file's identity and size (`stat`) and prints the bytes appended since the last offset. Each
/// report ends with a `done` marker, so the client acts on it at once rather than on the next. The
/// loop dies with the stream: ending the iteration or cancelling its task kills the remote process.
enum SessionFollowing {
    static let script = RemoteScript(step: "following the session", body: #"""
        b=$1 f=$2 o=$3 k=$4 iv=$5
        while :; do
          x=$(stat -c '%d_%i %s' -- "$f" 2>/dev/null)
          if [ -z "$x" ]; then
            [ "$k" = gone ] || printf '\n%s gone\n\n%s done\n' "$b" "$b"
            k=gone
          else
            n=${x%% *} s=${x#* } r=
            [ "$s" -lt "$o" ] && r=truncated
            [ -n "$k" ] && [ "$n" != "$k" ] && r=replaced
            if [ -n "$r" ]; then printf '\n%s reset %s\n\n%s done\n' "$b" "$r" "$b"; o=0; fi
            k=$n
            if [ "$s" -gt "$o" ]; then
              printf '\n%s data %s\n' "$b" "$o"
              if [ "$o" -eq 0 ]; then head -c "$s" -- "$f"; else tail -c +$((o + 1)) -- "$f" | head -c $((s - o)); fi
              printf '\n%s done\n' "$b"
              o=$s
            fi
          fi
          sleep "$iv" 2>/dev/null || sleep 1
        done
        """#)

    static func follow(_ listing: RemoteSessionListing, from offset: Int, interval: Duration, connection: SSHConnection) throws -> AsyncThrowingStream<SessionFollowEvent, Error> {
        let boundary = SectionReader.makeBoundary()
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        let command = try script.commandLine([
            .word(boundary), .path(listing.file.path), .word(String(offset)), .word(listing.fileIdentity),
            .word(String(format: "%.3f", max(0.05, seconds))),
        ])
        let remote = try connection.stream(command)
        return AsyncThrowingStream { continuation in
            let task = Task {
                var reader = SectionReader(boundary: boundary)
                var follower = SessionFollower(byteOffset: offset)
                do {
                    for try await event in remote.output {
                        guard case .stdout(let bytes) = event else { continue }
                        for section in reader.feed(bytes) {
                            for item in handle(section, follower: &follower) { continuation.yield(item) }
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: Task.isCancelled ? nil : error)
                }
            }
            continuation.onTermination = { _ in
                task.cancel()
                remote.cancel()
            }
        }
    }

    private static func handle(_ section: OutputSection, follower: inout SessionFollower) -> [SessionFollowEvent] {
        let words = section.fields(2)
        switch words.first {
        case "data":
            return follower.append(section.content).events.map { .conversation($0) }
        case "reset":
            follower = SessionFollower()
            return [.restarted(reason: words.count > 1 ? words[1] : "changed")]
        case "gone":
            return [.fileMissing]
        default:
            return []
        }
    }
}
