import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient

// `rws files` on a 100,000-file git repository, measured on a throwaway sshd on 127.0.0.1:
// the first query of a fresh FileFinder (the list crosses the connection) and further queries
// (one small command answers that the index is unchanged), against the bare round trip of
// `git ls-files` and of `true` on the same connection. Prints Markdown. Run with scripts/bench-find;
// `scripts/bench-find review` measures `rws status` and `rws diff` of a large change instead.

let fileCount = 100_000
let coldRuns = 10
let warmQueries = ["ffind", "readme", "hndlr", "mod7", "pkg12/src", "test", "cfg", "Component42", "x", "swift"]
let warmRounds = 5

func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func summary(_ samples: [Double]) -> String {
    let sorted = samples.sorted()
    func at(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count) * q).rounded(.up)) - 1)] }
    return String(format: "%.1f | %.1f | %.1f", at(0.5) * 1000, at(0.99) * 1000, sorted.last! * 1000)
}

/// `runs` timings of `body`, in seconds.
func timed(_ runs: Int, _ body: () async throws -> Void) async throws -> [Double] {
    var samples: [Double] = []
    for _ in 0..<runs {
        let started = ContinuousClock.now
        try await body()
        samples.append(seconds(since: started))
    }
    return samples
}

let server = try TestSSHServer()
defer { server.stop() }
if CommandLine.arguments.dropFirst().first == "transfer" {
    try await TransferBenchmark.run(server: server, parts: CommandLine.arguments.dropFirst(2).first)
    server.stop()
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "detached" {
    try await DetachedBenchmark.run(server: server)
    server.stop()
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "forward" {
    try await ForwardingBenchmark.run(server: server)
    server.stop()
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "ls" {
    try await ListingBenchmark.run(server: server)
    server.stop()
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "attention" {
    try await AttentionBenchmark.run(server: server)
    server.stop()
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "review" {
    try await ReviewBenchmark.run(server: server)
    server.stop()
    exit(0)
}
let repo = server.remoteHome + "/big"
print("writing a repository of \(fileCount) files…")
// 200 packages × 50 modules × 10 files; 90 % committed, 10 % untracked, plus ignored build output.
try Shell.run(
    "/bin/sh",
    [
        "-c",
        #"""
        set -e
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
        """#, "sh", repo,
    ])

var cold: [Double] = []
var listBytes = 0
var warm: [Double] = []
var perQuery: [String: [Double]] = [:]
var lsFiles: [Double] = []
var roundTrip: [Double] = []
var count = 0
try await server.withConnection { connection in
    for _ in 0..<coldRuns {
        let finder = FileFinder(connection: connection)
        let started = ContinuousClock.now
        let matches = try await finder.find("ffind", in: repo)
        cold.append(seconds(since: started))
        _ = matches
        count = try await finder.files(in: repo).paths.count
        for _ in 0..<warmRounds {
            for query in warmQueries {
                let started = ContinuousClock.now
                _ = try await finder.find(query, in: repo)
                warm.append(seconds(since: started))
                perQuery[query, default: []].append(warm[warm.count - 1])
            }
        }
    }
    let listCommand = "cd \(try ShellQuoting.quotePath(repo)) && git ls-files -co --exclude-standard -z"
    for _ in 0..<coldRuns {
        let started = ContinuousClock.now
        let result = try await connection.run(listCommand)
        lsFiles.append(seconds(since: started))
        listBytes = result.stdout.count
        let trip = ContinuousClock.now
        _ = try await connection.run("true")
        roundTrip.append(seconds(since: trip))
    }
}
print("\(count) files listed, \(listBytes / 1000) kB of paths\n")
print("| step | runs | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|")
print("| first query, fresh FileFinder (list crosses, ranked) | \(cold.count) | \(summary(cold)) |")
print("| further query (index unchanged: `same`, ranked here) | \(warm.count) | \(summary(warm)) |")
print("| reference: `git ls-files -co --exclude-standard -z` over exec | \(lsFiles.count) | \(summary(lsFiles)) |")
print("| reference: `true` round trip | \(roundTrip.count) | \(summary(roundTrip)) |")
print("\nFurther queries, by query:\n\n| query | runs | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|")
for query in warmQueries { print("| `\(query)` | \(perQuery[query]?.count ?? 0) | \(summary(perQuery[query] ?? [0])) |") }
