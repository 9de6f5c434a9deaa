import SSHClient

/// The hook Claude Code runs on the box for each event (see ``ClaudeHookSettings``), installed as
/// `<claude dir>/rws/hook.sh` and run as `sh hook.sh FOLDER` with the event's JSON on stdin.
///
/// It appends one JSON line per event to `FOLDER/events.jsonl`:
/// `{"at":SECONDS,"pid":PID,"event":{…Claude Code's object…}}`. Each line is at most
/// ``lineLimit`` bytes, written by one `write` on a file opened for appending, so lines of
/// concurrent sessions never tear or interleave: long strings in the event are cut (the head
/// kept, the tail for `last_assistant_message`), and an event still too long keeps only its
/// names and ids. Past ``spoolLimit`` bytes the spool moves to `events.jsonl.1` (one generation
/// kept, under a `mkdir` lock).
///
/// A permission request made while a watcher holds the lease (it touches `FOLDER/lease` at least
/// every few seconds) gets `"request":ID` in its line, made `FOLDER/requests/ID.json` before
/// that line is written, and waits for `FOLDER/answers/ID`, which it
/// prints to Claude Code as the decision. It stops waiting as soon as the watcher's lease lapses,
/// the request was answered in Claude Code itself (the transcript gained the tool's result),
/// Claude Code withdrew it (it ends the hook with SIGTERM once the request is answered another
/// way, or the session ends; or it is gone), or after ``ClaudeHookSettings/timeoutSeconds``; a
/// line `{"request":ID,"closed":WHY}` then says so. Claude Code shows its own dialog meanwhile, so no session waits on rws. The answer file
/// (or, closed otherwise, a marker in its place) stays an hour, so an answer that found the
/// request open just before it closed fails to link instead of being told it was taken.
public enum ClaudeHookScript {
    /// The longest spool line in bytes, newline included: one `write` below the smallest stdio
    /// buffer (4 KiB). The event is cut to 3,700 bytes; the line's own fields take under 100.
    public static let lineLimit = 3800
    /// The spool's size past which it is rotated.
    public static let spoolLimit = 1_048_576
    /// How long, in seconds, a lease stays fresh after the watcher's last touch.
    public static let leaseSeconds = 15

    /// The script.
    static let script = RemoteScript(
        step: "running rws's Claude Code hook",
        body: #"""
            # rws's hook for Claude Code, installed by `rws hooks install`; `rws hooks remove` takes it out.
            # One JSON line per event in events.jsonl beside it; see docs/attention.md.
            d=$1 s=$1/events.jsonl
            export LC_ALL=C
            in=$(cat) || exit 0
            [ -n "$in" ] || exit 0
            now=$(date +%s)
            fresh() { seen=$(date -r "$d/lease" +%s 2>/dev/null) && [ $(($(date +%s) - seen)) -le 15 ]; }
            id=
            case $in in *'"hook_event_name":"PermissionRequest"'*) [ -f "$d/lease" ] && fresh && id=$now-$$ ;; esac
            q=$d/requests/$id.json a=$d/answers/$id
            # Claude Code ends a waiting hook (SIGTERM) once the request is answered another way (its
            # own dialog, the SDK's control protocol as rws ask answers) or the session ends: the wait
            # must still close the request, or watchers would go on asking.
            gone=
            [ -z "$id" ] || trap 'gone=1' TERM HUP INT
            # Waiting before it is announced: a watcher may answer as soon as it reads the line.
            if [ -n "$id" ]; then mkdir -p "$d/requests" "$d/answers" 2>/dev/null; printf '%s\n' "$in" >"$q"; fi
            printf '%s\n' "$in" | awk -v at="$now" -v pid=$$ -v id="$id" -v max=3700 '
              function odd(t) { return match(t, /\\+$/) && RLENGTH % 2 == 1 }
              function shorten(t, L, tail) {
                if (length(t) <= L) return t
                if (tail) {
                  t = substr(t, length(t) - L + 1)
                  sub(/^[\200-\277]+/, "", t); sub(/^\\+"?/, "", t)
                  return "\\u2026" t
                }
                t = substr(t, 1, L)
                if (odd(t)) t = substr(t, 1, length(t) - 1)
                sub(/\\u[0-9a-fA-F]?[0-9a-fA-F]?[0-9a-fA-F]?$/, "", t)
                sub(/[\300-\377][\200-\277]*$/, "", t)
                return t "\\u2026"
              }
              function cut(s, L,    n, k, p, o, t) {
                n = split(s, p, "\"")
                o = p[1]; k = 2
                while (k <= n) {
                  t = p[k]
                  while (odd(t) && k < n) { k++; t = t "\"" p[k] }
                  o = o "\"" shorten(t, L, o ~ /"last_assistant_message": *$/) "\""
                  k++
                  if (k <= n) { o = o p[k]; k++ }
                  if (length(o) > max) return o
                }
                return o
              }
              function field(s, name) {
                return match(s, "\"" name "\":\"[^\"\\\\]*\"") ? "," substr(s, RSTART, RLENGTH) : ""
              }
              { line = line $0 }
              END {
                e = line
                if (length(e) > max) e = cut(line, 300)
                if (length(e) > max) e = cut(line, 40)
                if (length(e) > max) {
                  e = field(line, "hook_event_name") field(line, "session_id") field(line, "tool_name") \
                    field(line, "notification_type")
                  e = "{\"rws_cut\":true" e "}"
                }
                printf "{\"at\":%s,\"pid\":%s%s,\"event\":%s}\n", at, pid, (id == "" ? "" : ",\"request\":\"" id "\""), e
              }' >>"$s"
            if [ "$(wc -c <"$s")" -gt 1048576 ]; then
              if mkdir "$d/rotating" 2>/dev/null; then
                mv -f "$s" "$s.1"; rmdir "$d/rotating"
                find "$d/requests" "$d/answers" -type f -mmin +60 -exec rm -f {} + 2>/dev/null
              else
                find "$d" -maxdepth 1 -name rotating -mmin +1 -exec rmdir {} + 2>/dev/null
              fi
            fi
            [ -n "$id" ] || exit 0
            t=${in#*'"transcript_path":"'} t=${t%%'"'*}
            # Answered in Claude Code itself: the tool's result appears in the transcript after the
            # request. Where the event names no tool_use_id, the call is the last one in the
            # transcript of this tool with this input (its start, u): a result Claude Code writes
            # late for an earlier call must not close this request.
            r='' u=''
            case $in in *'"tool_use_id":"'*) r=${in#*'"tool_use_id":"'} r='"tool_use_id":"'${r%%'"'*}'"' ;; esac
            case $in in *'"tool_name":"'*'"tool_input":{'*)
              u=${in#*'"tool_name":"'} f=${in#*'"tool_input":'} f=${f%%'",'*}
              u='","name":"'${u%%'"'*}'","input":'${f%%'"}'*} ;;
            esac
            z=$(wc -c <"$t" 2>/dev/null) || z=0
            s0=$z i=0 why=timeout
            while [ $i -lt 3000 ]; do
              if [ -f "$a" ]; then cat "$a"; why=answered; break; fi
              if [ -n "$gone" ]; then why=withdrawn; break; fi
              y=$(wc -c <"$t" 2>/dev/null) || y=0
              if [ "$y" != "$z" ]; then
                z=$y
                if [ -z "$r" ] && [ -n "$u" ]; then
                  r=$(U=$u awk '{ while ((k = index($0, ENVIRON["U"])) > 0) {
                      n = split(substr($0, 1, k - 1), p, "\""); id = p[n]; $0 = substr($0, k + length(ENVIRON["U"])) } }
                    END { if (id != "") printf "\"tool_use_id\":\"%s\"", id }' "$t" 2>/dev/null)
                fi
                if [ -n "$r" ] && tail -c +$((s0 + 1)) "$t" 2>/dev/null | grep -qF "$r"; then why=elsewhere; break; fi
              fi
              if [ $((i % 5)) -eq 4 ]; then
                # Claude Code gone without a word (killed): nobody waits for the answer.
                kill -0 "$PPID" 2>/dev/null || { why=withdrawn; break; }
                fresh || { why=unwatched; break; }
              fi
              sleep 0.2; i=$((i + 1))
            done
            # Closed without an answer: a marker takes the answer's name (a hard link cannot
            # replace a file), and an answer that got there first is given after all.
            if [ "$why" != answered ]; then
              c=$d/answers/.$id.closed
              if printf '{"closed":"%s"}\n' "$why" >"$c" && ln "$c" "$a" 2>/dev/null; then :
              elif [ "$why" != elsewhere ] && [ "$why" != withdrawn ] && [ -f "$a" ]; then cat "$a"; why=answered
              fi
              rm -f "$c"
            fi
            printf '{"at":%s,"pid":%s,"request":"%s","closed":"%s"}\n' "$(date +%s)" $$ "$id" "$why" >>"$s"
            # The answer (or the marker) stays an hour: an answer that found the request still
            # open a moment ago must fail to link, not be told it was taken.
            rm -f "$q"
            find "$d/answers" -type f -mmin +60 -exec rm -f {} + 2>/dev/null
            exit 0
            """#)

    /// The text of the installed `hook.sh`.
    public static var fileText: String { script.body + "\n" }
}
