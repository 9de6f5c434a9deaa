import Foundation
import SSHClient
import SessionHistory

/// The remote side of a ``SessionFollow``: one long-running loop that every `interval` looks at
/// the file's identity and size (`stat`) and prints the bytes appended since the last offset.
/// Each report ends with a `done` marker, so the client acts on it at once rather than on the next.
///
/// Nothing signals a command without a terminal when its connection drops, and a loop over a
/// session that no longer changes would never write again: every ``heartbeat`` the loop prints an
/// `alive` marker, which fails (SIGPIPE or EPIPE) once the server's end is gone, and so it ends.
///
/// Two optional arguments serve a rotated spool (``ClaudeAttentionWatch``): `$7` the previous
/// generation's path, whose unread rest is reported before the reset when the file was replaced
/// by a new one and the old one moved there (also when a look fell between the move and the new
/// file); `$8` a lease file touched on every look.
enum FollowScript {
    static let script = RemoteScript(
        step: "following the session",
        body: #"""
            b=$1 f=$2 o=$3 k=$4 iv=$5 hb=$6 prev=$7 lease=$8 i=0 g=
            while :; do
              [ -z "$lease" ] || : >"$lease" 2>/dev/null
              x=$(stat -c '%d_%i %s' -- "$f" 2>/dev/null)
              if [ -z "$x" ]; then
                # k keeps the identity of the file that went: a rotation moved it to $prev.
                [ -n "$g" ] || printf '\n%s gone\n\n%s done\n' "$b" "$b"
                g=1
              else
                g=
                n=${x%% *} s=${x#* } r=
                [ "$s" -lt "$o" ] && r=truncated
                [ -n "$k" ] && [ "$n" != "$k" ] && r=replaced
                if [ -n "$r" ]; then
                  if [ "$r" = replaced ] && [ -n "$prev" ] && [ "$(stat -c '%d_%i' -- "$prev" 2>/dev/null)" = "$k" ]; then
                    ps=$(stat -c %s -- "$prev")
                    if [ "$ps" -gt "$o" ]; then
                      printf '\n%s data %s %s\n' "$b" "$o" "$k"
                      tail -c +$((o + 1)) -- "$prev" | head -c $((ps - o))
                      printf '\n%s done\n' "$b"
                    fi
                  fi
                  printf '\n%s reset %s\n\n%s done\n' "$b" "$r" "$b"; o=0
                fi
                k=$n
                if [ "$s" -gt "$o" ]; then
                  printf '\n%s data %s %s\n' "$b" "$o" "$n"
                  if [ "$o" -eq 0 ]; then head -c "$s" -- "$f"; else tail -c +$((o + 1)) -- "$f" | head -c $((s - o)); fi
                  printf '\n%s done\n' "$b"
                  o=$s
                fi
              fi
              i=$((i + 1))
              if [ "$i" -ge "$hb" ]; then i=0; printf '\n%s alive\n' "$b" || exit 0; fi
              sleep "$iv" 2>/dev/null || sleep 1
            done
            """#)

    /// How often a loop with nothing to report writes anyway, to learn whether its client is gone.
    static let heartbeat = Duration.seconds(5)

    /// Starts the remote loop for `listing` from `offset`.
    static func start(
        _ listing: RemoteSessionListing, from offset: Int, interval: Duration, host: any ScriptHost
    ) throws -> SessionFollow {
        let loop = Loop(
            path: listing.file.path, interval: interval, host: host, initialIdentity: listing.fileIdentity)
        let position = Position(offset: offset, identity: listing.fileIdentity)
        return SessionFollow(loop: loop, remote: try loop.start(at: position), offset: offset)
    }

    /// Where the remote loop stands: the bytes reported so far and the identity of the file they came from.
    struct Position: Sendable {
        var offset: Int
        var identity: String
    }

    /// What it takes to (re)start the remote loop, so that a follow resumes after a reconnect.
    struct Loop: Sendable {
        let path: String
        let interval: Duration
        let host: any ScriptHost
        let initialIdentity: String
        /// Where the previous generation of a rotated file goes; nil for a session file.
        var previousGeneration: String?
        /// A file the loop touches on every look; nil for none.
        var lease: String?
        let boundary = SectionReader.makeBoundary()

        /// Where a follow from `offset` starts; the file's identity comes with the first report.
        func initialPosition(offset: Int) -> Position { Position(offset: offset, identity: initialIdentity) }

        func start(at position: Position) throws -> RemoteCommand {
            let seconds = max(0.05, Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18)
            let beats = max(1, Int((Double(heartbeat.components.seconds) / seconds).rounded()))
            return try script.start(
                on: host,
                [
                    .word(boundary), .path(path), .word(String(position.offset)), .word(position.identity),
                    .word(String(format: "%.3f", seconds)), .word(String(beats)),
                    previousGeneration.map(RemoteScript.Argument.path) ?? .word(""),
                    lease.map(RemoteScript.Argument.path) ?? .word(""),
                ])
        }
    }
}
