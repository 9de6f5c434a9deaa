import SSHClient

/// The remote scripts of `rws hooks`: read what is installed, and write the settings and the hook.
enum ClaudeHookScripts {
    /// Why a hooks script stopped.
    enum Exit: Int32, RemoteScriptExit {
        case changedMeanwhile = 3
        case writeFailed = 4
        case projectNotFound = 5
        case notWaiting = 6
        case answeredAlready = 7
        /// The disk is full; what the script had begun to write was removed.
        case noSpace = 8
    }

    /// `$1` boundary, `$2` the project directory (empty: user level), then the Claude data folders
    /// in order of preference. Prints `dir` with the folder (the first that exists, else the first
    /// given) and `settings` with the settings file's path (paths as content: they may hold
    /// newlines), then `content CKSUM` with the file, `backup` with its backup and `hook` with the
    /// installed hook, each when present, `spool BYTES` (both generations), `current IDENTITY SIZE`
    /// of the spool, then `end`.
    static let inspect = RemoteScript(
        step: "reading Claude Code's settings", exits: Exit.self,
        body: #"""
            b=$1 p=$2; shift 2
            mark() { printf '\n%s %s\n' "$b" "$*"; }
            d=
            for c in "$@"; do [ -d "$c" ] && { d=$c; break; }; done
            [ -n "$d" ] || d=$1
            case $d in /*) ;; *) d=$HOME/$d ;; esac
            if [ -n "$p" ]; then
              [ -d "$p" ] || exit 5
              case $p in /*) ;; *) p=$HOME/$p ;; esac
              f=$p/.claude/settings.local.json
            else
              f=$d/settings.json
            fi
            mark dir; printf '%s' "$d"
            mark settings; printf '%s' "$f"
            if [ -f "$f" ]; then mark content "$(cksum <"$f")"; cat "$f"; fi
            if [ -f "$f.rws-backup" ]; then mark backup; cat "$f.rws-backup"; fi
            if [ -f "$d/rws/hook.sh" ]; then mark hook; cat "$d/rws/hook.sh"; fi
            size() { if [ -f "$1" ]; then wc -c <"$1"; else echo 0; fi; }
            mark spool "$(($(size "$d/rws/events.jsonl.1") + $(size "$d/rws/events.jsonl")))"
            mark current "$(stat -c '%d_%i %s' -- "$d/rws/events.jsonl" 2>/dev/null)"
            mark end
            """#)

    /// `$1` the Claude data folder, `$2` the settings file, `$3` its `cksum` when read (`absent`),
    /// `$4` `install` or `remove`, `$5` the hook's text; stdin the new settings. Install writes
    /// the hook and keeps the old settings as `FILE.rws-backup`; remove deletes that backup, and
    /// at user level (`$6` = `user`) the hook's folder; an empty stdin on remove deletes the
    /// settings file (install made it); a remove with no settings file (`$3`
    /// `absent`) only deletes that folder. Every file is written beside its place and renamed
    /// over it, so a failure (a full disk: ``Exit/noSpace``) leaves each as it was.
    static let write = RemoteScript(
        step: "writing Claude Code's settings", exits: Exit.self,
        body: #"""
            d=$1 f=$2 expect=$3 mode=$4 hook=$5 level=$6
            now=absent
            [ -f "$f" ] && now=$(cksum <"$f")
            [ "$now" = "$expect" ] || exit 3
            if [ "$mode" = remove ] && [ "$now" = absent ]; then
              [ "$level" = user ] && rm -rf "$d/rws"
              exit 0
            fi
            mkdir -p "${f%/*}" || exit 4
            # A symlinked settings file is written through: its target is replaced, the link kept.
            t=$f
            [ -L "$f" ] && t=$(readlink -f -- "$f")
            n=$t.rws-new
            # On a failure nothing half-written stays; a full disk says so.
            fail() {
              free=$(df -Pk -- "${t%/*}" 2>/dev/null | awk 'NR == 2 { print $4 }')
              rm -f -- "$n" "$d/rws/hook.sh.new" "$f.rws-backup.new"
              rmdir -- "$d/rws" 2>/dev/null
              [ "$free" = 0 ] && exit 8
              exit 4
            }
            if [ -f "$f" ]; then cp -p "$t" "$n" || fail; fi
            cat >"$n" || fail
            if [ "$mode" = install ]; then
              { mkdir -p "$d/rws" && printf '%s' "$hook" >"$d/rws/hook.sh.new" && mv -f "$d/rws/hook.sh.new" "$d/rws/hook.sh"; } || fail
              if [ -f "$f" ]; then { cp -p "$t" "$f.rws-backup.new" && mv -f "$f.rws-backup.new" "$f.rws-backup"; } || fail; fi
            fi
            if [ "$mode" = remove ] && [ ! -s "$n" ]; then
              rm -f "$n" "$f" || exit 4
            else
              mv -f "$n" "$t" || fail
            fi
            if [ "$mode" = remove ]; then
              rm -f "$f.rws-backup"
              [ "$level" = user ] && rm -rf "$d/rws"
            fi
            exit 0
            """#)

    /// `$1` the hook folder, `$2` a request id, `$3` the decision's JSON: the first answer to a
    /// waiting request wins (a hard link cannot replace a file).
    static let answer = RemoteScript(
        step: "answering a permission request", exits: Exit.self,
        body: #"""
            d=$1 id=$2 text=$3
            [ -f "$d/requests/$id.json" ] || exit 6
            t=$d/answers/.$id.$$
            printf '%s\n' "$text" >"$t" || exit 4
            ln "$t" "$d/answers/$id" 2>/dev/null || { rm -f "$t"; exit 7; }
            rm -f "$t"
            """#)

    static let all = [inspect, write, answer, ClaudeHookScript.script]
}
