import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient

/// `rws-bench review` (scripts/bench review): `rws status` and `rws diff` of a change
/// of 10,000 files plus a 200 MB generated file, against git's own commands run over exec on
/// the same connection. Prints Markdown.
enum ReviewBenchmark {
    static let runs = 10

    static func run(server: TestSSHServer) async throws {
        let repo = server.remoteHome + "/review"
        print("writing a repository of 10,000 changed files and a 200 MB generated one…")
        try runShellScript(
            #"""
            mkdir -p "$1" && cd "$1" && git init -q
            i=0
            while [ $i -lt 100 ]; do
              mkdir -p "src/m$i"
              j=0
              while [ $j -lt 100 ]; do seq 1 20 > "src/m$i/f$j.txt"; j=$((j+1)); done
              i=$((i+1))
            done
            printf 'small\n' > generated.js
            git add -A && git -c user.name=b -c user.email=b@b commit -qm base
            for f in src/*/*.txt; do echo changed >> "$f"; done
            head -c 200000000 /dev/zero | tr '\0' 'x' | fold -w 100 > generated.js
            mkdir -p dist && cp generated.js dist/bundle.js
            """#, repo)
        var rows: [(step: String, samples: [Double])] = []
        try await server.withConnection { connection in
            let review = ProjectReview(connection: connection, directory: repo)
            let quoted = try ShellQuoting.quotePath(repo)
            var changed = 0
            var diff: GitDiff?
            var snapshot: GitSnapshot?
            var numstat = 0
            rows.append(
                ("`ProjectReview.status()` (`rws status`)", try await timed(runs) { changed = try await review.status().entries.count }))
            rows.append(("`ProjectReview.diff()` (`rws diff`), default caps", try await timed(runs) { diff = try await review.diff() }))
            rows.append(("`ProjectReview.snapshot()` (a turn starts)", try await timed(runs) { snapshot = try await review.snapshot() }))
            let since = try require(snapshot)
            rows.append(("`diff(.snapshot)`: nothing changed since", try await timed(runs) { _ = try await review.diff(.snapshot(since)) }))
            let status = "cd \(quoted) && git status --porcelain=v2 -z"
            rows.append(
                ("reference: `git status --porcelain=v2 -z` over exec", try await timed(runs) { _ = try await connection.run(status) }))
            let numstatCommand = "cd \(quoted) && git diff --numstat"
            rows.append(
                (
                    "reference: `git diff --numstat` over exec",
                    try await timed(runs) { numstat = try await connection.run(numstatCommand).stdout.count }
                ))
            let result = try require(diff)
            let tooLarge = result.files.filter(\.isTooLarge).map(\.path.description)
            print(
                "\(changed) status entries; the diff: \(result.files.count) files, +\(result.added) −\(result.deleted), "
                    + "cut: \(result.isCut), too large: \(tooLarge); git's numstat: \(numstat) bytes\n")
        }
        print(MarkdownTable(timings: rows))
    }

    private static func require<T>(_ value: T?) throws -> T {
        guard let value else { throw BenchFailure("a step gave no result") }
        return value
    }
}
