import SSHClient
import SessionHistory

/// The remote half of a session listing: one POSIX sh script for every Claude data folder.
///
/// For each folder it prints the `stat` line of every `.jsonl` and `.meta.json` file under the
/// selected project folders (`pat`: globs over folder names, one per line) as
/// `dev_inode size mtime ./path` (GNU and BusyBox `stat -c` agree),
/// then, for the session files directly inside a project folder only:
/// - nothing, when stdin named the file unchanged: its whole `stat` line among the folder's known
///   lines (`K<n>`, sorted by byte: removed at once by `sort` and `comm -23`, so an unchanged
///   history costs no awk pass; where `comm` is missing, as in some BusyBox builds, the awk pass
///   below tells them), or its identity with the same size and mtime (`o_<dev_inode>=<size>_<mtime>`, a
///   file renamed or moved);
/// - the appended bytes (`range` sections), when stdin gave an older size for its identity:
///   a grown file is read from its old size only;
/// - otherwise its first `window` bytes (one `head -c` for all such files) and, when it is
///   larger than that, its last `window` bytes (one `tail -c`).
/// The new or grown session files holding a title record in their first or last `wide` bytes
/// (Claude Code's window) are named (`grep -o -E` with `TitleLines.extendedRegex` over `head -c`
/// and `tail -c`, attributed by their `==> NAME <==` headers; a line of the file that looks like
/// such a header would take the attribution, which no JSON line can), so that a rename the 8 KiB
/// windows miss is looked for in the wide ones.
/// Every new or grown session file is also counted whole on the box (`grep -c`, one process per
/// folder; unless the client asks not to): its lines holding `"type":"user"` or
/// `"type":"assistant"`, whitespace around the colon allowed (`grep -c -E` with
/// `MessageLines.extendedRegex`, ``SessionSummary/messageCount``). The counts come last, after a
/// `counting` marker (`counting hold` when the files to count hold over `holdAbove` bytes: the
/// script then exits only at the end of its stdin, which the client gives once it has widened
/// what it needs on other channels); see `RemoteScript.sections(on:_:input:splitAt:timeout:whileTheRestArrives:)`.
/// Running `head` and `tail` once over many files keeps the cost at a few processes whatever the
/// number of sessions; both print `==> NAME <==` headers between files (parsed by
/// ``MultiFileOutput``), and `/dev/null` goes first so a single file gets a header too.
/// Stdin's first `inputBytes` hold only assignments written by the client (digits, or a list
/// quoted by `ShellQuoting`), and the other `eval` reads only what the script's awk pass writes
/// (paths quoted the same way), so `eval` runs nothing else.
enum ListingScript {
    static let script = RemoteScript(
        step: "listing sessions",
        body: #"""
            # shellcheck disable=SC2086 # file lists are split into words at newlines
            b=$1 ib=$2 w=$3 W=$4 pat=$5 cnt=$6 mre=$7 tre=$8 hb=$9; shift 9
            nl='
            '
            # Stdin's first $ib bytes (its end comes when the client is done: see `hold` below).
            in=$(head -c "$ib")
            eval "$in"
            # Known sizes from stdin (o_<identity>=<size>_<mtime>), then a line holding only the
            # boundary, then stat lines; prints shell code for the session files directly in a
            # project folder that are new or changed: `rng` calls for the appended bytes of a file
            # grown from the size the client holds, then the lists (a path a line, quoted): `h`
            # the new files, `t` those larger than the window, `n` all of them, `u` those larger
            # than the wide window, and `z=H` when they hold over $hb bytes.
            # shellcheck disable=SC2016 # an awk program
            cls='
              function quoted(s) { gsub(q, q "\\" q q, s); return s }
              function list(name, a, count,    i) {
                printf "%s=%s", name, q
                for (i = 1; i <= count; i++) printf "%s%s", (i > 1 ? "\n" : ""), quoted(a[i])
                printf "%s\n", q
              }
              !k { if ($0 == b) k = 1
                   else if ($0 ~ /^o_[0-9_]+=[0-9]+_[0-9]+$/) { e = index($0, "="); o[substr($0, 3, e - 3)] = substr($0, e + 1) }
                   next }
              NF < 4 || ($1 $2 $3) ~ /[^0-9_]/ { next }
              { p = $0; sub(/^[^ ]* [^ ]* [^ ]* /, "", p) }
              split(p, x, "/") != 3 || p ~ /[.]meta[.]json$/ { next }
              { v = ($1 in o) ? o[$1] : "" }
              v == ($2 "_" $3) { next }
              { sub(/_.*/, "", v); n[++nn] = p; z += $2; s = $2 + 0 }
              s > W + 0 { u[++nu] = p }
              v == "" || v + 0 >= s { h[++nh] = p; if (s > w + 0) t[++nt] = p; next }
              {
                o1 = v + 0; a = s - w; if (a < o1) a = o1
                if (o1 < w + 0) {
                  c = w + 0; if (s < c) c = s
                  printf "rng %s%s%s %.0f %.0f\n", q, quoted(p), q, o1, c - o1
                  if (a < c) a = c
                }
                if (a < s) printf "rng %s%s%s %.0f %.0f\n", q, quoted(p), q, a, s - a
              }
              END { list("h", h, nh); list("t", t, nt); list("n", n, nn); list("u", u, nu); if (z > hb + 0) print "z=H" }'
            rng() { printf '\n%s range %s %s %s\n' "$b" "$2" "$3" "$1"; tail -c +$(($2 + 1)) "$1" | head -c "$3"; }
            exec 3>&1
            i=0 hold=
            for d in "$@"; do
              i=$((i + 1))
              # The folder's output goes to fd 3; its new and grown files come back on fd 5, after
              # `H` when they hold over $hb bytes (their counting takes a while) or `-`.
              x=$(
              (
              cd "$d" 2>/dev/null || exit 0
              IFS=$nl
              set -f --
              for q in $pat; do set -- "$@" -o -path "./$q/*"; done
              [ $# -gt 0 ] && shift
              l=$(find . \( "$@" \) -type f \( -name '*.jsonl' -o -name '*.meta.json' \) ! -name "*$nl*" \
                    -exec stat -c '%d_%i %s %Y %n' {} + 2>/dev/null)
              printf '\n%s dir %s\n%s' "$b" "$i" "$l"
              # The lines not known as they are (the known ones come sorted); any failure, all of them.
              eval "c=\${K$i-}"
              if [ -n "$c" ] && v=$(printf '%s\n' "$l" | LC_ALL=C sort) &&
                c=$(printf '%s\n' "$c" | { printf '%s\n' "$v" | LC_ALL=C comm -23 - /dev/fd/3; } 3<&0); then :; else
                c=$l
              fi
              # One awk pass tells each line not known as it is (a shell loop appending to its
              # lists copies them whole each time: 1.1 s for 4,000 new files under dash).
              h='' t='' n='' u='' z=-
              if [ -n "$c" ]; then
                eval "$(printf '%s\n' "$in" "$b" "$c" | LC_ALL=C awk -v b="$b" -v w="$w" -v W="$W" -v hb="$hb" -v q="'" "$cls")"
              fi
              # The windows go out (fd 3) while the files holding a title line in their first or
              # last W bytes, where Claude Code looks for one, gather in $y: the names of the
              # `head`/`tail` headers a title line follows. The window job keeps $y's pipe open
              # (fd 4), so $y is complete only when both have ended (no `wait`: BusyBox's can hang).
              { y=$(
                {
                  [ -n "$h" ] && { printf '\n%s heads\n' "$b"; head -c "$w" /dev/null $h; }
                  [ -n "$t" ] && { printf '\n%s tails\n' "$b"; tail -c "$w" /dev/null $t; }
                } 4>&1 >&3 &
                [ -n "$n" ] && { head -c "$W" /dev/null $n; [ -n "$u" ] && tail -c "$W" /dev/null $u; } 2>/dev/null |
                  LC_ALL=C grep -o -E -e '^==> .* <==$' -e "$tre" |
                  LC_ALL=C awk '/^==> .* <==$/ { f = substr($0, 5, length($0) - 8); next } f != "" { print f; f = "" }'
              ); } 3>&1
              [ -n "$n" ] && printf '\n%s titled\n%s' "$b" "$y"
              printf '%s%s' "$z" "$n" >&5
              ) 5>&1 >&3
              )
              case $x in H*) [ "$cnt" = 1 ] && hold=1 ;; esac
              eval "N$i=\${x#?}"
            done
            # All but the counts is out. When counting takes a while, the client goes on with the
            # rest (widening windows on other channels) meanwhile; this shell then exits only when
            # the client says so: dropbear 2022.83 drops the connection when a channel's process
            # exits while another channel is being set up (mkj/dropbear#321). Else the client
            # goes on once this script has ended.
            printf '\n%s counting%s\n' "$b" "${hold:+ hold}"
            i=0
            for d in "$@"; do
              i=$((i + 1))
              eval "f=\$N$i"
              if [ "$cnt" != 1 ] || [ -z "$f" ]; then continue; fi
              (
              cd "$d" 2>/dev/null || exit 0
              IFS=$nl
              set -f
              printf '\n%s counts %s\n' "$b" "$i"
              LC_ALL=C grep -c -E -e "$mre" /dev/null $f
              )
            done
            printf '\n%s end\n' "$b"
            [ -z "$hold" ] || cat >/dev/null
            """#)

    /// What the client already holds for one file, sent on stdin.
    struct Known: Sendable {
        /// The file's full path, as the client names it (a listed folder, then the path below it).
        var path: String
        var identity: String
        var size: Int
        var mtime: Int
    }

    /// The stdin text naming the files the client holds: per identity its size and mtime, and per
    /// folder (in `folders`' order) the `stat` lines it expects for them.
    static func input(known: [Known], folders: [String]) -> [UInt8] {
        var text = ""
        var lines = [[String]](repeating: [], count: folders.count)
        for file in known where isVariableSafe(file.identity) {
            text += "o_\(file.identity)=\(file.size)_\(file.mtime)\n"
            guard let (index, below) = place(of: file.path, in: folders) else { continue }
            lines[index].append("\(file.identity) \(file.size) \(file.mtime) ./\(below)")
        }
        for (index, list) in lines.enumerated() where !list.isEmpty {
            // In `LC_ALL=C sort`'s order, as `comm` wants them.
            let sorted = list.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.joined(separator: "\n")
            // A path the quoting refuses (NUL) cannot be on the box: its file is read as unknown.
            guard let quoted = try? ShellQuoting.quote(sorted) else { continue }
            text += "K\(index + 1)=\(quoted)\n"
        }
        return Array(text.utf8)
    }

    /// The first of `folders` that `path` lies in, and the path below it.
    private static func place(of path: String, in folders: [String]) -> (Int, Substring)? {
        for (index, folder) in folders.enumerated() {
            let prefix = folder.hasSuffix("/") ? folder : folder + "/"
            if path.hasPrefix(prefix) { return (index, path.dropFirst(prefix.count)) }
        }
        return nil
    }

    /// The script's arguments after the boundary; `inputBytes` is the length of its stdin text
    /// (``input(known:folders:)``).
    static func arguments(
        inputBytes: Int = 0, window: Int, wide: Int = ListingWindowPolicy().wide, projectPattern: String, countsMessages: Bool = true,
        holdAbove: Int = SessionListingOptions().countsBesideWideningAbove, folders: [String]
    ) -> [RemoteScript.Argument] {
        [
            .word(String(inputBytes)), .word(String(window)), .word(String(wide)), .word(projectPattern), .word(countsMessages ? "1" : "0"),
            .word(MessageLines.extendedRegex), .word(TitleLines.extendedRegex), .word(String(holdAbove)),
        ] + folders.map { .path($0) }
    }

    private static func isVariableSafe(_ identity: String) -> Bool {
        !identity.isEmpty && identity.utf8.allSatisfy { $0 == UInt8(ascii: "_") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
