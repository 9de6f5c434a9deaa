import SSHClient

/// The remote half of a search: one POSIX sh script for every Claude data folder.
///
/// For each folder it lists the session and subagent files under the selected project folders,
/// newest first (files last changed before `since` left out), keeps the ones holding a match
/// (`LC_ALL=C grep -l -i -E`: one pass that stops at each file's first match), and for the newest
/// `files` of those prints:
/// - `files`: their `stat` lines (`size mtime ./path`);
/// - `hits`: per matching line (`grep -n`, then `awk` over the line lowercased), the line's
///   number, its first `type`, its role, uuid and time, and a window of `window` bytes on each side of each of its
///   first `perLine` matches — never the whole line; at most `records` lines per file, then
///   an `x` line when more of that file matched.
/// A `dir` header gives the folder's number and how many files matched in all. Exit 3 when grep
/// refuses the expression (its message on stderr).
enum SessionSearchScript {
    enum Exit: Int32, RemoteScriptExit {
        /// grep refused the expression.
        case badExpression = 3
    }

    static let script = RemoteScript(
        step: "searching sessions", exits: Exit.self,
        body: #"""
            # shellcheck disable=SC2086 # file lists are split into words at newlines
            b=$1 re=$2 pat=$3 since=$4 ms=$5 mr=$6 w=$7 k=$8; shift 8
            nl='
            '
            IFS=$nl
            set -f
            i=0
            for d do
              i=$((i + 1))
              ( cd "$d" 2>/dev/null || exit 0
              l=$(find . -path "./$pat/*" -type f -name '*.jsonl' ! -name "*$nl*" ! -path '*:*' \
                    -exec stat -c '%Y %n' {} + 2>/dev/null | sort -rn | awk -v s="$since" '$1 >= s { sub(/^[0-9]+ /, ""); print }')
              [ -n "$l" ] || exit 0
              m=$(LC_ALL=C grep -l -i -E -e "$re" /dev/null $l)
              [ $? -eq 2 ] && exit 3
              [ -n "$m" ] || exit 0
              t='' n=0
              for f in $m; do n=$((n + 1)); [ "$n" -le "$ms" ] && t=$t$nl$f; done
              printf '\n%s dir %s %s\n' "$b" "$i" "$n"
              printf '\n%s files\n' "$b"
              stat -c '%s %Y %n' $t
              printf '\n%s hits\n' "$b"
              LC_ALL=C grep -n -i -E -e "$re" /dev/null $t | RE=$re W=$w K=$k MR=$mr LC_ALL=C awk '
                function field(s, key,   v) {
                  if (!match(s, "\"" key "\"[ \t]*:[ \t]*\"[^\"]*\"")) return ""
                  v = substr(s, RSTART, RLENGTH)
                  sub(/^"[^"]*"[ \t]*:[ \t]*"/, "", v)
                  return substr(v, 1, length(v) - 1)
                }
                BEGIN { re = ENVIRON["RE"]; w = ENVIRON["W"] + 0; k = ENVIRON["K"] + 0; mr = ENVIRON["MR"] + 0 }
                {
                  i = index($0, ".jsonl:")
                  if (i == 0) next
                  f = substr($0, 1, i + 5)
                  if (f == pf && h >= mr) { if (!cut) print "x"; cut = 1; next }
                  r = substr($0, i + 7); j = index(r, ":")
                  n = substr(r, 1, j - 1); s = substr(r, j + 1); l = tolower(s); ls = length(s)
                  ty = field(s, "type"); ro = field(s, "role"); if (ro == "") ro = ty
                  if (index(s, "\"tool_result\"")) ro = "tool_result"
                  u = field(s, "uuid"); ts = field(s, "timestamp")
                  c = 0; p = 0; o = ""
                  while (c < k && p < ls && match(substr(l, p + 1), re)) {
                    a = p + RSTART
                    if (RLENGTH == 0) { p = a; continue }
                    x = a - w; if (x < 1) x = 1
                    y = a + RLENGTH - 1 + w; if (y > ls) y = ls
                    o = o "w " (a - 1) " " (a - x) " " RLENGTH " " substr(s, x, y - x + 1) "\n"
                    c++; p = a + RLENGTH - 1
                  }
                  if (c == 0) next
                  if (f != pf) { print "f " f; pf = f; h = 0; cut = 0 }
                  printf "h %s %s\ny %s\nr %s\nu %s\nt %s\n%s", n, c, ty, ro, u, ts, o
                  h++
                }'
              exit 0
              ) || exit $?
            done
            printf '\n%s end\n' "$b"
            """#)

    /// The script's arguments after the boundary.
    static func arguments(
        pattern: SearchPattern, projectPattern: String, since: Int, limits: SessionSearchLimits, folders: [String]
    ) -> [RemoteScript.Argument] {
        [
            .word(pattern.extendedRegex), .word(projectPattern), .word(String(since)), .word(String(limits.files)),
            .word(String(limits.recordsPerFile)), .word(String(limits.window)), .word(String(limits.matchesPerRecord)),
        ] + folders.map { .path($0) }
    }
}
