import Foundation
import SessionHistory
import SSHClient

/// The remote side of a ``SessionFollow``: one long-running loop that every `interval` looks at
/// the file's identity and size (`stat`) and prints the bytes appended since the last offset.
/// Each report ends with a `done` marker, so the client acts on it at once rather than on the next.
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

    /// Starts the remote loop for `listing` from `offset`.
    static func start(_ listing: RemoteSessionListing, from offset: Int, interval: Duration, connection: SSHConnection) throws -> SessionFollow {
        let boundary = SectionReader.makeBoundary()
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        let command = try script.commandLine([
            .word(boundary), .path(listing.file.path), .word(String(offset)), .word(listing.fileIdentity),
            .word(String(format: "%.3f", max(0.05, seconds))),
        ])
        return SessionFollow(remote: try connection.stream(command), boundary: boundary, offset: offset)
    }

    /// The events of one section of the loop's output.
    static func events(of section: OutputSection, follower: inout SessionFollower) -> [SessionFollowEvent] {
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
