import Foundation
import RWSTestSupport

/// A real git repository made for the review tests: every kind of change git reports, and names
/// that break naive parsers.
enum ReviewRepository {
    /// Hostile untracked names, as bytes: a newline, a quote and a backslash, a leading dash, a
    /// non-UTF-8 byte, a space with a tab, and non-ASCII.
    static let hostileNames: [[UInt8]] = [
        Array("new\nline".utf8), Array("q\"uote\\d".utf8), Array("-dash".utf8), [0x62, 0x61, 0x64, 0xFE],
        Array("sp ace\tx".utf8), Array("caf\u{e9}.txt".utf8),
    ]

    /// Makes the repository in `folder/repo` (and a submodule source in `folder/sub`): on branch
    /// `main` in the middle of a merge with a conflict in `c.txt`; `r.txt` renamed (staged) to
    /// `renamed.txt`; `bin` binary and changed; `mode.sh` made executable; `del.txt` deleted;
    /// submodule `sm` with a modified file; the hostile names untracked, each holding `x`.
    static func make(in folder: String) throws -> String {
        let names = hostileNames.map { name in name.map { String(format: "\\%03o", $0) }.joined() }
        let hostile = names.map { "printf 'x\\n' > \"$(printf '\($0)')\"" }.joined(separator: "\n")
        try Shell.sh(
            """
            set -e
            cd '\(folder)'
            export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
            git init -q sub && (cd sub && echo s > s && git add s && git commit -qm s)
            git init -q -b main repo && cd repo
            printf 'one\\ntwo\\nthree\\n' > c.txt; printf 'keep\\n' > r.txt; printf '\\000\\001\\002' > bin
            echo m > mode.sh; echo gone > del.txt
            git -c protocol.file.allow=always submodule add -q ../sub sm
            git add -A && git commit -qm base
            git checkout -qb other && printf 'one\\nTWO\\nthree\\n' > c.txt && git commit -qam other
            git checkout -q main && printf 'one\\n2\\nthree\\n' > c.txt && git commit -qam mainchange
            git merge -q other >/dev/null 2>&1 || true
            git mv r.txt renamed.txt; printf '\\003\\004' > bin; chmod +x mode.sh; rm del.txt
            (cd sm && echo t >> s)
            \(hostile)
            """)
        return folder + "/repo"
    }

    /// A repository with one commit of `lines` numbered lines in `long.txt`, then every line changed.
    static func makeLong(in folder: String, lines: Int) throws -> String {
        try Shell.sh(
            """
            set -e
            cd '\(folder)'
            export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
            git init -q -b main long && cd long
            seq 1 \(lines) > long.txt; echo small > small.txt
            git add -A && git commit -qm base
            seq 1 \(lines) | sed 's/$/ changed/' > long.txt; echo smaller > small.txt
            """)
        return folder + "/long"
    }
}
