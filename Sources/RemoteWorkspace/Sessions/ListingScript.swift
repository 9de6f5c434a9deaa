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
/// Every new or grown session file is also counted whole on the box (`grep -c`, one process for
/// all of them; unless the client asks not to): its lines holding `"type":"user"` or
/// `"type":"assistant"`, whitespace around the colon allowed (`grep -c -E` with
/// `MessageLines.extendedRegex`, ``SessionSummary/messageCount``), and the files holding a
/// title record are named (`grep -l -E`, `TitleLines.extendedRegex`) so that a rename the 8 KiB windows miss is looked for in
/// the wide ones.
/// Running `head` and `tail` once over many files keeps the cost at a few processes whatever the
/// number of sessions; both print `==> NAME <==` headers between files (parsed by
/// ``MultiFileOutput``), and `/dev/null` goes first so a single file gets a header too.
/// Stdin holds only assignments written by the client (digits, or a list quoted by
/// `ShellQuoting`), so `eval` reads nothing else.
enum ListingScript {
    static let script = RemoteScript(
        step: "listing sessions",
        body: #"""
            # shellcheck disable=SC2086 # file lists are split into words at newlines
            b=$1 w=$2 pat=$3 cnt=$4 mre=$5 tre=$6; shift 6
            nl='
            '
            in=$(cat)
            eval "$in"
            # Known sizes from stdin (o_<identity>=<size>_<mtime>), then a line holding only the
            # boundary, then stat lines: prints `n <path>` for each session file directly in a
            # project folder that is new or changed, then `h`/`t` (its head, its tail when larger
            # than the window) or `g <old size> <size> <path>` (grown from the size the client holds).
            # shellcheck disable=SC2016 # an awk program
            cls='
              !k { if ($0 == b) k = 1
                   else if ($0 ~ /^o_[0-9_]+=[0-9]+_[0-9]+$/) { e = index($0, "="); o[substr($0, 3, e - 3)] = substr($0, e + 1) }
                   next }
              NF < 4 || ($1 $2 $3) ~ /[^0-9_]/ { next }
              { p = $0; sub(/^[^ ]* [^ ]* [^ ]* /, "", p) }
              split(p, q, "/") != 3 || p ~ /[.]meta[.]json$/ { next }
              { v = ($1 in o) ? o[$1] : "" }
              v == ($2 "_" $3) { next }
              { sub(/_.*/, "", v); print "n " p }
              v != "" && v + 0 < $2 + 0 { print "g " v " " $2 " " p; next }
              { print "h " p }
              $2 + 0 > w + 0 { print "t " p }'
            rng() { printf '\n%s range %s %s %s\n' "$b" "$2" "$3" "$1"; tail -c +$(($2 + 1)) "$1" | head -c "$3"; }
            i=0
            for d in "$@"; do
              i=$((i + 1))
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
              r=$(printf '%s\n' "$in" "$b" "$c" | LC_ALL=C awk -v b="$b" -v w="$w" "$cls")
              h=$(printf '%s\n' "$r" | LC_ALL=C sed -n 's/^h //p')
              t=$(printf '%s\n' "$r" | LC_ALL=C sed -n 's/^t //p')
              n=$(printf '%s\n' "$r" | LC_ALL=C sed -n 's/^n //p')
              printf '%s\n' "$r" | LC_ALL=C sed -n 's/^g //p' | while IFS= read -r e; do
                o=${e%% *}; e=${e#* }; s=${e%% *}; p=${e#* }
                a=$((s - w)); [ "$a" -lt "$o" ] && a=$o
                if [ "$o" -lt "$w" ]; then
                  c=$w; [ "$s" -lt "$c" ] && c=$s
                  rng "$p" "$o" $((c - o))
                  [ "$a" -lt "$c" ] && a=$c
                fi
                [ "$a" -lt "$s" ] && rng "$p" "$a" $((s - a))
              done
              [ -n "$h" ] && { printf '\n%s heads\n' "$b"; head -c "$w" /dev/null $h; }
              [ -n "$t" ] && { printf '\n%s tails\n' "$b"; tail -c "$w" /dev/null $t; }
              if [ "$cnt" = 1 ] && [ -n "$n" ]; then
                # Both greps read every file: side by side, the counts go out as they come (fd 3)
                # while the titled names gather in $x. The counting grep keeps $x's pipe open (fd 4),
                # so $x is complete only when both have ended (no `wait`: BusyBox's can hang).
                printf '\n%s counts\n' "$b"
                { x=$(LC_ALL=C grep -c -E -e "$mre" /dev/null $n 4>&1 >&3 &
                    LC_ALL=C grep -l -E -e "$tre" /dev/null $n); } 3>&1
                printf '\n%s titled\n' "$b"
                [ -n "$x" ] && printf '%s\n' "$x"
              fi
              exit 0
              )
            done
            printf '\n%s end\n' "$b"
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

    /// The script's arguments after the boundary.
    static func arguments(window: Int, projectPattern: String, countsMessages: Bool = true, folders: [String]) -> [RemoteScript.Argument] {
        [
            .word(String(window)), .word(projectPattern), .word(countsMessages ? "1" : "0"),
            .word(MessageLines.extendedRegex), .word(TitleLines.extendedRegex),
        ] + folders.map { .path($0) }
    }

    private static func isVariableSafe(_ identity: String) -> Bool {
        !identity.isEmpty && identity.utf8.allSatisfy { $0 == UInt8(ascii: "_") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
