import SSHClient

/// The scripts of a detached conversation: Claude Code runs on the box apart from any SSH channel,
/// in a folder of its own, `~/.rws/conversations/ID/`:
///
/// - `in`: a FIFO, Claude Code's stdin; the box keeps it open, so it never reads an end of file.
/// - `out`: Claude Code's stream-json stdout, appended; a client replays it from any byte offset.
/// - `err`: its stderr. `group`: the session (and process group) it leads. `client`: the PID of
///   the attached client's script (`seen` once one attached). `answered`: permission request ids already answered.
/// - `stop` (asked to stop), `status` (its exit status), `ended` (the end line was written).
///
/// A keeper process (``keeper``) starts Claude Code with `setsid`, watches it, ends it when no
/// client was attached for the idle time, writes the end line
/// (`{"type":"rws_detached_end","status":N,"reason":"exited|stopped|idle"}`) to `out`, and removes
/// the folder once a client has read to the end, or when none came back for the idle time.
enum DetachedClaudeScripts {
    /// Where detached conversations live on the box.
    static let folder = "~/.rws/conversations"

    /// Why ``start`` stopped before Claude Code ran.
    enum StartExit: Int32, RemoteScriptExit {
        /// The directory does not exist (``ClaudeCommandLine/missingDirectoryMarker`` on stderr).
        case missingDirectory = 2
        /// The conversation folder could not be made (the id exists, or no space).
        case folderNotMade = 5
        /// `setsid` is not on the box.
        case noSetsid = 6
        /// Claude Code is not on `PATH` (``ClaudeCommandLine/missingClaudeMarker`` on stderr).
        case missingClaude = 127
    }

    /// `$1` the conversations folder, `$2` the id, `$3` the idle seconds, `$4` the ``keeper`` body,
    /// `$5` 1 to change to directory `$6`, `$7` the program, `$8` `$9` the two markers; then the
    /// environment assignments, the program again and its arguments (for `env`).
    static let start = RemoteScript(
        step: "starting Claude Code detached", exits: StartExit.self,
        body: #"""
            PATH="$PATH:$HOME/.local/bin:$HOME/.claude/local"; export PATH
            base=$1 id=$2 idle=$3 keeper=$4 program=$7
            if [ "$5" = 1 ]; then cd "$6" 2>/dev/null || { echo "$8" >&2; exit 2; }; fi
            command -v "$program" >/dev/null 2>&1 || { echo "$9" >&2; exit 127; }
            command -v setsid >/dev/null 2>&1 || exit 6
            shift 9
            umask 077
            mkdir -p "$base" 2>/dev/null || exit 5
            d=$base/$id
            mkdir "$d" 2>/dev/null || exit 5
            { mkfifo "$d/in" && : >"$d/out" && : >"$d/err"; } 2>/dev/null || { rm -rf "$d"; exit 5; }
            setsid /bin/sh -c "$keeper" rws-keeper "$d" "$idle" "$@" </dev/null >/dev/null 2>&1 &
            """#)

    /// The keeper, run with `setsid` by ``start``: `$1` the folder, `$2` the idle seconds, then
    /// `env`'s arguments. Claude Code runs in a session of its own (its tools with it), so that
    /// the keeper can end it and outlive it.
    static let keeper = RemoteScript(
        step: "keeping a detached conversation",
        body: #"""
            d=$1 idle=$2; shift 2
            echo $$ >"$d/keeper"
            exec 3<>"$d/in"
            # shellcheck disable=SC2016 # the inner script expands its own arguments
            ( setsid /bin/sh -c 'echo $$ >"$1/group"; shift; exec env "$@"' rws-claude "$d" "$@" <&3 >>"$d/out" 2>>"$d/err" 3<&-
              echo $? >"$d/status.part" && mv "$d/status.part" "$d/status" ) &
            trap '' HUP TERM
            # Claude Code's session, read once: the folder may be removed under the keeper.
            g=; i=0
            while [ -z "$g" ] && [ $i -lt 100 ]; do [ -s "$d/group" ] && read -r g <"$d/group"; [ -n "$g" ] || sleep 0.1; i=$((i + 1)); done
            attached() { c=; [ -s "$d/client" ] && read -r c <"$d/client" && [ -n "$c" ] && kill -0 "$c" 2>/dev/null; }
            # A minute's grace until a client attached (it leaves `seen`): a slow first attach is not
            # idleness; one that came and went between two looks counts from then.
            reason=exited gone=-60
            while [ ! -e "$d/status" ]; do
              sleep 1
              [ -e "$d/stop" ] && { reason=stopped; break; }
              if attached; then
                gone=0
              elif [ "$gone" -lt 0 ] && [ -e "$d/seen" ]; then
                gone=1
              else
                gone=$((gone + 1))
              fi
              [ "$gone" -ge "$idle" ] && { reason=idle; break; }
            done
            if [ ! -e "$d/status" ] && [ "$reason" = idle ]; then
              # Interrupted first, Claude Code ends the turn in its session file as for a user's interrupt.
              printf '{"type":"control_request","request_id":"rws-idle","request":{"subtype":"interrupt"}}\n' >&3
              i=0; while [ $i -lt 30 ] && ! grep -q '"request_id":"rws-idle"' "$d/out"; do sleep 0.1; i=$((i + 1)); done
            fi
            if [ ! -e "$d/status" ]; then
              if [ -n "$g" ]; then
                kill -TERM "-$g" 2>/dev/null
                i=0; while [ ! -e "$d/status" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
                kill -KILL "-$g" 2>/dev/null
              fi
              i=0; while [ ! -e "$d/status" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
            fi
            [ -e "$d/stop" ] && reason=stopped
            s=; [ -s "$d/status" ] && read -r s <"$d/status"
            printf '{"type":"rws_detached_end","status":%s,"reason":"%s"}\n' "${s:-null}" "$reason" >>"$d/out"
            : >"$d/ended"
            gone=0
            while [ -d "$d" ] && [ "$gone" -lt "$idle" ]; do
              sleep 1
              if attached; then gone=0; else gone=$((gone + 1)); fi
            done
            rm -rf "$d"
            """#)

    /// Why ``attach`` stopped.
    enum AttachExit: Int32, RemoteScriptExit {
        /// No conversation has that id (it ended and was cleaned up, or never was).
        case notFound = 3
        /// Another client took the conversation over.
        case takenOver = 75
    }

    /// `$1` the conversations folder, `$2` the id, `$3` the byte offset of `out` to replay from.
    ///
    /// Takes the conversation over from a client still attached (its script ends with 75), prints
    /// `rws-answered ID` for each answered permission request and `rws-attached SIZE`, then `out`
    /// from the offset, following it, with the end of `err` on stderr. Lines read from stdin go to
    /// Claude Code whole (a line cut by a lost link is dropped); `#rws-answered ID` lines are
    /// noted in `answered` instead. When stdin ends after the end line, the folder is removed.
    static let attach = RemoteScript(
        step: "attaching to a detached conversation", exits: AttachExit.self,
        body: #"""
            d=$1/$2 offset=$3
            [ -d "$d" ] && [ -p "$d/in" ] || exit 3
            c=; [ -s "$d/client" ] && read -r c <"$d/client"
            if [ -n "$c" ] && [ "$c" != $$ ] && kill -0 "$c" 2>/dev/null; then
              kill -TERM "$c" 2>/dev/null
              i=0; while kill -0 "$c" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
            fi
            echo $$ >"$d/client"
            : >"$d/seen"
            # KILL: a TERM that reaches a tail between its fork and its exec can be lost. Waited
            # for with stderr closed: bash says "Killed" there of a job it reaps unwaited.
            unfollow() { { kill -KILL $t $e; wait $t $e; } 2>/dev/null; }
            trap 'unfollow; exit 75' TERM
            [ -s "$d/answered" ] && sed 's/^/rws-answered /' "$d/answered"
            echo "rws-attached $(wc -c <"$d/out")"
            tail -c +$((offset + 1)) -f "$d/out" & t=$!
            tail -c 4096 -f "$d/err" >&2 & e=$!
            exec 4<>"$d/in"
            while IFS= read -r line; do
              case $line in
                '#rws-answered '*) printf '%s\n' "${line#'#rws-answered '}" >>"$d/answered" ;;
                *) printf '%s\n' "$line" >&4 ;;
              esac
            done
            unfollow
            [ -e "$d/ended" ] && rm -rf "$d"
            exit 0
            """#)

    /// Why ``stop`` failed.
    enum StopExit: Int32, RemoteScriptExit {
        /// No conversation has that id.
        case notFound = 3
    }

    /// `$1` the conversations folder, `$2` the id: asks the keeper to stop and prints the session
    /// Claude Code leads (`group G`, for the caller's verified stop) and the keeper (`keeper K`).
    static let stop = RemoteScript(
        step: "stopping a detached conversation", exits: StopExit.self,
        body: #"""
            d=$1/$2
            [ -d "$d" ] || exit 3
            : >"$d/stop"
            g=; [ -s "$d/group" ] && read -r g <"$d/group"
            k=; [ -s "$d/keeper" ] && read -r k <"$d/keeper"
            echo "group ${g:-none}"
            echo "keeper ${k:-none}"
            """#)

    /// `$1` the conversations folder, `$2` the id, `$3` the keeper's PID (or nothing): removes the
    /// folder once the conversation ended (an attached client may have done so), and waits for the
    /// keeper to leave (a zombie, which a container's PID 1 may never reap, has left).
    static let forget = RemoteScript(
        step: "removing a detached conversation's files",
        body: #"""
            d=$1/$2
            i=0; while [ -d "$d" ] && [ ! -e "$d/ended" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
            k=$3
            rm -rf "$d"
            [ -n "$k" ] || exit 0
            i=0
            while [ $i -lt 30 ]; do
              s=$(ps -o stat= -p "$k" 2>/dev/null) || break
              case $s in Z* | '') break ;; esac
              sleep 0.1; i=$((i + 1))
            done
            """#)

    /// `$1` the conversations folder: one line per conversation,
    /// `ID<TAB>state<TAB>session id<TAB>directory`, state `attached`, `detached` or `ended`; the
    /// session id from the first line of `out` that names one (empty before the first turn).
    static let list = RemoteScript(
        step: "listing detached conversations",
        body: #"""
            [ -d "$1" ] || exit 0
            for d in "$1"/*/; do
              [ -d "$d" ] || continue
              d=${d%/}; id=${d##*/}
              state=detached
              c=; [ -s "$d/client" ] && read -r c <"$d/client"
              [ -n "$c" ] && kill -0 "$c" 2>/dev/null && state=attached
              [ -e "$d/ended" ] && state=ended
              g=; [ -s "$d/group" ] && read -r g <"$d/group"
              w=; [ -n "$g" ] && w=$(readlink "/proc/$g/cwd" 2>/dev/null)
              s=$(grep -m 1 -o '"session_id":"[^"]*"' "$d/out" 2>/dev/null) && s=${s#'"session_id":"'} && s=${s%'"'}
              printf '%s\t%s\t%s\t%s\n' "$id" "$state" "$s" "$w"
            done
            """#)

    static let all: [RemoteScript] = [start, keeper, attach, stop, forget, list]
}

extension DetachedClaudeScripts {
    /// Whether `id` is letters, digits, `-` and `_` only (1–64 of them): a conversation id, or a
    /// request id safe to note on a line of its own.
    static func isPlainID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            }
    }

    /// A new conversation id: 8 random hexadecimal digits.
    static func newID() -> String {
        let value = UInt32.random(in: .min ... .max)
        return String(repeating: "0", count: 8 - String(value, radix: 16).count) + String(value, radix: 16)
    }
}
