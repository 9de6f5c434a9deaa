import Foundation
import RWSTestSupport

/// One area of benchmarks: `rws-bench NAME ARGUMENTS`. `run` gets the arguments after the name
/// and returns the exit status.
struct Subcommand: Sendable {
    let name: String
    let arguments: String
    let summary: String
    let run: @Sendable ([String]) async throws -> Int32
}

/// Every subcommand of `rws-bench`, its usage text and the dispatch.
///
/// The SSH benchmark harness (../shared/bench/README.md, "Client contract") runs
/// `rws-bench <benchmark>`: one number on the last stdout line, diagnostics on stderr, exit 3 for
/// a benchmark this client does not run. The other subcommands start what they measure (most a
/// throwaway sshd on 127.0.0.1) and print Markdown tables; `soak` and `fault-soak` print a JSON
/// summary and exit 0 only when the run passed; `history` prints `name value unit` lines.
enum Subcommands {
    static let all: [Subcommand] = [
        .onTestServer("find", "rws files on a 100,000-file git repository; git ls-files and true", FindBenchmark.run(server:)),
        .onTestServer("review", "rws status and rws diff of a 10,000-file change; git status, git diff", ReviewBenchmark.run(server:)),
        .onTestServer("ls", "rws ls of 50,000 entries over 300 ms round trips; a true round trip", ListingBenchmark.run(server:)),
        .onTestServer("transfer", "[files|trees]", "rws get and put of a 500 MB file and a 10,000-file tree; C libssh2, sftp, scp") {
            server, arguments in
            guard arguments.count <= 1, [nil, "files", "trees"].contains(arguments.first) else { throw UsageError() }
            try await TransferBenchmark.run(server: server, parts: arguments.first)
        },
        .onTestServer("forward", "a forwarded port's throughput and latency; ssh -L, the port itself", ForwardingBenchmark.run(server:)),
        .onTestServer("attention", "the Claude Code hook's cost, event to rws watch; cat as the hook", AttentionBenchmark.run(server:)),
        .onTestServer("detached", "what rws ask --persist adds per streamed event; the direct path", DetachedBenchmark.run(server:)),
        .onTestServer("sessions", "listing, loading, following a 1 GB history; cat, sftp get -r", SessionsBenchmark.run(server:)),
        .onTestServer("search", "rws search of the 1 GB history; grep on the box", SearchBenchmark.run(server:)),
        .onTestServer("big-history", "listing a 4 GB history; cat, sftp get -r", BigHistoryListing.run(server:)),
        .onTestServer("load", "loading a 99 MB session ten times; cat of it", BigSessionLoad.run(server:)),
        .onTestServer("slow-link", "loading a 50 MB session over 10 Mbit/s, 50 ms round trips", SlowLinkLoad.run(server:)),
        Subcommand(name: "history", arguments: "FILE.jsonl", summary: "SessionHistory's parse, build, summary, Markdown export") {
            arguments in
            guard arguments.count == 1 else { throw UsageError() }
            try HistoryBenchmark.run(file: URL(fileURLWithPath: arguments[0]))
            return 0
        },
        Subcommand(
            name: "soak", arguments: "[--duration S] [--quick] [--execs N] [--reads N] [--sample S] [--cut-every S] …",
            summary: "one connection under mixed load; growth bounds"
        ) { arguments in
            try await SoakBenchmark.run(environment, try SoakOptions(arguments)) ? 0 : 1
        },
        Subcommand(
            name: "age", arguments: "[global-request|probe] [--compare]", summary: "latency and memory under a month of keepalives"
        ) { arguments in
            try await AgeBenchmark.run(environment, arguments: arguments) ? 0 : 1
        },
        Subcommand(
            name: "fault-soak", arguments: "[--duration S] [--server openssh|dropbear] [--cut-every S] …",
            summary: "the rws command through resets and black holes"
        ) { arguments in
            try await FaultSoak.run(try FaultSoakOptions(arguments)) ? 0 : 1
        },
    ]

    static let environment = BenchEnvironment(ProcessInfo.processInfo.environment)

    static var usage: String {
        let column = 24
        func line(_ syntax: String, _ summary: String) -> String {
            let gap =
                syntax.count < column
                ? String(repeating: " ", count: column - syntax.count) : "\n" + String(repeating: " ", count: column + 2)
            return "  " + syntax + gap + summary + "\n"
        }
        var text = "usage: rws-bench SUBCOMMAND [options]    (--help: this text)\n\n"
        text += line(
            Benchmarks.all.keys.sorted().joined(separator: "|"), "one figure for ../shared/bench (BENCH_HOST, BENCH_PORT, BENCH_KEY…)")
        for command in all {
            text += line(command.arguments.isEmpty ? command.name : command.name + " " + command.arguments, command.summary)
        }
        return text
    }

    static func main(_ arguments: [String]) async -> Int32 {
        guard let name = arguments.first else { return fail(usage, status: 2) }
        let rest = Array(arguments.dropFirst())
        if ["-h", "--help", "help"].contains(name) || rest.first == "--help" || rest.first == "-h" {
            print(usage, terminator: "")
            return 0
        }
        do {
            if let benchmark = Benchmarks.all[name] {
                guard rest.isEmpty else { return fail(usage, status: 2) }
                print(try await benchmark(environment))
                return 0
            }
            guard let command = all.first(where: { $0.name == name }) else {
                // The harness's "not supported by this client".
                return fail("rws-bench: \(name) is not supported (rws-bench --help lists the subcommands)\n", status: 3)
            }
            return try await command.run(rest)
        } catch is UsageError {
            return fail(usage, status: 2)
        } catch {
            return fail("rws-bench: \(error)\n", status: 1)
        }
    }

    private static func fail(_ message: String, status: Int32) -> Int32 {
        FileHandle.standardError.write(Data(message.utf8))
        return status
    }
}

extension Subcommand {
    /// A subcommand without arguments that runs `body` against a throwaway sshd on 127.0.0.1.
    static func onTestServer(
        _ name: String, _ summary: String, _ body: @escaping @Sendable (TestSSHServer) async throws -> Void
    ) -> Subcommand {
        onTestServer(name, "", summary) { server, arguments in
            guard arguments.isEmpty else { throw UsageError() }
            try await body(server)
        }
    }

    /// A subcommand that runs `body` against a throwaway sshd on 127.0.0.1 (the tests' server), stopped after it.
    static func onTestServer(
        _ name: String, _ arguments: String, _ summary: String, _ body: @escaping @Sendable (TestSSHServer, [String]) async throws -> Void
    ) -> Subcommand {
        Subcommand(name: name, arguments: arguments, summary: summary) { arguments in
            let server = try TestSSHServer()
            defer { server.stop() }
            try await body(server, arguments)
            return 0
        }
    }
}

/// Arguments that the subcommand does not take: the usage text, exit 2.
struct UsageError: Error {}
