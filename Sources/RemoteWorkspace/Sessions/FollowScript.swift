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
/// A look the box's shell cannot make for want of file descriptors is reported as `nofd`, and the
/// loop ends with 71 (as ``RemoteScript``'s own check does when the loop cannot even start): the
/// client waits ``descriptorRetry`` and starts it again where it was, so no byte is lost.
///
/// Two optional arguments serve a rotated spool (``ClaudeAttentionWatch``): `$7` the previous
/// generation's path, whose unread rest is reported before the reset when the file was replaced
/// by a new one and the old one moved there (also when a look fell between the move and the new
/// file); `$8` a lease file touched on every look. Bytes are read through a descriptor proven to
/// be the file the look saw: a rotation between a look and its read would otherwise have the
/// read take the new file's bytes at the old file's offsets, losing lines.
enum FollowScript {
    static let script = RemoteScript(
        step: "following the session",
        body: #"""
            b=$1 f=$2 o=$3 k=$4 iv=$5 hb=$6 prev=$7 lease=$8 i=0 g=
            # Reports bytes $1 up to $2 of file $3, open on descriptor 3.
            send() {
              printf '\n%s data %s %s\n' "$b" "$1" "$3"
              if [ "$1" -eq 0 ]; then head -c "$2" <&3; else tail -c +$(($1 + 1)) <&3 | head -c $(($2 - $1)); fi
              printf '\n%s done\n' "$b"
            }
            # Whether path $1 is file $2 (y: its size).
            is() { y=$(stat -c '%d_%i %s' -- "$1" 2>/dev/null) && [ "${y%% *}" = "$2" ] && y=${y#* }; }
            # Reports bytes $3 up to $4 (or its size) of path $1 if it is file $2. Asked after the
            # open, `is` proves the descriptor is that file: a rotation may move another one there
            # between a look and its read, and a file it moved away does not come back, so the
            # look (or the move that made $1 the previous generation) is the check before.
            # shellcheck disable=SC2094 # is only reads
            from() {
              { is "$1" "$2" && [ "${4:-$y}" -gt "$3" ] && send "$3" "${4:-$y}" "$2"; } 2>/dev/null 3<"$1"
            }
            while :; do
              # Out of descriptors, dash ends on the next failed substitution or redirection of
              # `:` (status 2): look first with a command whose failed redirection it survives.
              true 2>/dev/null || { printf '\n%s nofd\n\n%s done\n' "$b" "$b"; exit 71; }
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
                  [ "$r" = replaced ] && [ -n "$prev" ] && from "$prev" "$k" "$o"
                  printf '\n%s reset %s\n\n%s done\n' "$b" "$r" "$b"; o=0
                fi
                k=$n
                # Not read when replaced since the look: the next look says so.
                [ "$s" -gt "$o" ] && from "$f" "$n" "$o" "$s" && o=$s
              fi
              i=$((i + 1))
              if [ "$i" -ge "$hb" ]; then i=0; printf '\n%s alive\n' "$b" || exit 0; fi
              sleep "$iv" 2>/dev/null || sleep 1
            done
            """#)

    /// How often a loop with nothing to report writes anyway, to learn whether its client is gone.
    static let heartbeat = Duration.seconds(5)

    /// How long a loop that ended for want of descriptors on the box waits before it starts again.
    static let descriptorRetry = Duration.seconds(2)

    /// The exit status of a loop that ended for want of descriptors on the box: the script's
    /// `exit 71`, and ``RemoteScript``'s own check before it starts.
    static let outOfDescriptorsStatus = ExitStatus.exited(RemoteScript.outOfDescriptorsStatus)

    /// Starts the remote loop for `listing` from `offset`, its events going on from `loaded` (the
    /// conversation of the file up to `offset`) when given.
    static func start(
        _ listing: RemoteSessionListing, from offset: Int, continuing loaded: Conversation? = nil, interval: Duration,
        host: any ScriptHost
    ) throws -> SessionFollow {
        let loop = Loop(
            path: listing.file.path, interval: interval, host: host, initialIdentity: listing.fileIdentity)
        let position = Position(offset: offset, identity: listing.fileIdentity)
        return SessionFollow(loop: loop, remote: try loop.start(at: position), offset: offset, continuing: loaded)
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
