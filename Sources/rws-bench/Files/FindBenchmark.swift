import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient

/// `rws-bench find` (scripts/bench find): `rws files` on a 100,000-file git repository: the
/// first query of a fresh FileFinder (the list crosses the connection) and further queries (one
/// small command answers that the index is unchanged), against the bare round trip of
/// `git ls-files` and of `true` on the same connection. Prints Markdown.
enum FindBenchmark {
    static let fileCount = 100_000
    static let coldRuns = 10
    static let warmQueries = ["ffind", "readme", "hndlr", "mod7", "pkg12/src", "test", "cfg", "Component42", "x", "swift"]
    static let warmRounds = 5

    static func run(server: TestSSHServer) async throws {
        let repo = server.remoteHome + "/big"
        print("writing a repository of \(fileCount) files…")
        try writeRepository(repo)
        var cold: [Double] = []
        var listBytes = 0
        var perQuery: [String: [Double]] = [:]
        var lsFiles: [Double] = []
        var roundTrip: [Double] = []
        var count = 0
        try await server.withConnection { connection in
            for _ in 0..<coldRuns {
                let finder = FileFinder(connection: connection)
                cold += try await timed(1) { _ = try await finder.find("ffind", in: repo) }
                count = try await finder.files(in: repo).paths.count
                for _ in 0..<warmRounds {
                    for query in warmQueries {
                        perQuery[query, default: []] += try await timed(1) { _ = try await finder.find(query, in: repo) }
                    }
                }
            }
            let listCommand = "cd \(try ShellQuoting.quotePath(repo)) && git ls-files -co --exclude-standard -z"
            for _ in 0..<coldRuns {
                lsFiles += try await timed(1) { listBytes = try await connection.run(listCommand).stdout.count }
                roundTrip += try await timed(1) { _ = try await connection.run("true") }
            }
        }
        print("\(count) files listed, \(listBytes / 1000) kB of paths\n")
        print(
            MarkdownTable(timings: [
                ("first query, fresh FileFinder (list crosses, ranked)", cold),
                ("further query (index unchanged: `same`, ranked here)", warmQueries.flatMap { perQuery[$0] ?? [] }),
                ("reference: `git ls-files -co --exclude-standard -z` over exec", lsFiles),
                ("reference: `true` round trip", roundTrip),
            ]))
        print("\nFurther queries, by query:\n")
        print(MarkdownTable(timings: warmQueries.map { ("`\($0)`", perQuery[$0] ?? []) }, step: "query"))
    }

    /// 200 packages × 50 modules × 10 files; 90 % committed, 10 % untracked, plus ignored build output.
    private static func writeRepository(_ repo: String) throws {
        try runShellScript(
            #"""
            mkdir -p "$1" && cd "$1" && git init -q
            i=0
            while [ $i -lt 200 ]; do
              j=0
              while [ $j -lt 50 ]; do
                d=pkg$i/src/mod$j
                mkdir -p "$d"
                for k in 0 1 2 3 4 5 6 7 8 9; do : > "$d/Component${k}Handler.swift"; done
                j=$((j+1))
              done
              i=$((i+1))
            done
            printf 'build/\n' > .gitignore
            mkdir -p build && : > build/out.o
            git add -A && git -c user.name=b -c user.email=b@b commit -qm files
            i=0
            while [ $i -lt 200 ]; do
              mkdir -p "pkg$i/new"
              j=0; while [ $j -lt 50 ]; do : > "pkg$i/new/untracked$j.txt"; j=$((j+1)); done
              i=$((i+1))
            done
            git rm -q --cached -r pkg*/src/mod0 >/dev/null
            """#, repo)
    }
}
