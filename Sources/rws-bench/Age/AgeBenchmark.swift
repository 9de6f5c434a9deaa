import Foundation
@_spi(Benchmarks) import SSHClient

/// `rws-bench age [global-request|probe]`: latency and memory of one connection as it ages.
///
/// A connection's age here is the keepalives behind it. They are sent back to back
/// (``SSHConnection/sendKeepalives(_:count:)``) up to what a day, a week and a month leave at the
/// default 5 s interval while a shell stays open (17,280 / 120,960 / 518,400), and at each stage
/// shell echo, exec and SFTP stat latency (`BENCH_LAT_N` each, default 500) and the client's RSS
/// are measured on the same connection. `global-request` is libssh2's keepalive as rws sent it
/// before (every reply stays queued in libssh2 1.10); `probe` is rws's keepalive.
enum AgeBenchmark {
    static let stages: [(name: String, keepalives: Int)] = [
        ("fresh", 0), ("day", 86_400 / 5), ("week", 7 * 86_400 / 5), ("month", 30 * 86_400 / 5),
    ]

    /// `[global-request|probe] [--compare]`: the kind of keepalive (default `probe`); staged, or compared.
    static func run(_ env: BenchEnvironment, arguments: [String]) async throws -> Bool {
        guard let kind = KeepaliveKind(rawValue: arguments.first ?? KeepaliveKind.probe.rawValue),
            arguments.count < 2 || arguments == [arguments[0], "--compare"]
        else { throw UsageError() }
        return try await arguments.count > 1 ? compare(env, kind: kind) : run(env, kind: kind)
    }

    static func run(_ env: BenchEnvironment, kind: KeepaliveKind) async throws -> Bool {
        try env.checkAlgorithms()
        var configuration = env.configuration
        configuration.fileTransport = .sftp
        let connection = try await SSHConnection.connect(configuration)
        let shell = try await connection.openShell()
        var terminal = TerminalReader(shell.output)
        try await shell.send("PS1='> '; echo RWS''READY\r")
        try await terminal.waitFor("RWSREADY")
        try await terminal.waitFor("> ")
        let count = env.int("BENCH_LAT_N", 500)
        var sent = 0
        var rows: [[String: Any]] = []
        for stage in stages {
            let burstStart = ContinuousClock.now
            try await connection.sendKeepalives(kind, count: stage.keepalives - sent)
            sent = stage.keepalives
            // Replies still in flight land before the measurement.
            _ = try await connection.run("true")
            let burstSeconds = seconds(since: burstStart)
            var row: [String: Any] = ["stage": stage.name, "keepalives": sent, "kind": kind.rawValue, "burstSeconds": burstSeconds]
            row["shell_echo"] = try await echo(shell, &terminal, count: count).summary
            row["exec"] = try await Benchmarks.execTrue(connection, count: count).summary
            row["sftp_stat"] = try await stat(connection, count: count).summary
            row["rssKiB"] = ProcessResources.sample(at: 0).rssKiB
            rows.append(row)
            let data = try JSONSerialization.data(withJSONObject: row, options: [.sortedKeys])
            FileHandle.standardError.write(Data("bench-age ".utf8) + data + Data("\n".utf8))
        }
        try await shell.close()
        await connection.close()
        print(table(rows))
        return true
    }

    /// `rws-bench age KIND --compare`: a fresh connection and one with a month of keepalives
    /// behind it, measured in alternating rounds in the same run, so that the machine's load
    /// falls on both alike. Prints p50/p99 of each and their ratio (aged / fresh).
    static func compare(_ env: BenchEnvironment, kind: KeepaliveKind) async throws -> Bool {
        try env.checkAlgorithms()
        var configuration = env.configuration
        configuration.fileTransport = .sftp
        let fresh = try await Subject(configuration)
        let aged = try await Subject(configuration)
        let rssBefore = ProcessResources.sample(at: 0).rssKiB
        // BENCH_AGE_KEEPALIVES=0 makes both fresh: what the ratios look like from noise alone.
        let count = env.int("BENCH_AGE_KEEPALIVES", stages.last!.keepalives)
        try await aged.connection.sendKeepalives(kind, count: count)
        _ = try await aged.connection.run("true")
        let rssGrowth = ProcessResources.sample(at: 0).rssKiB - rssBefore
        let (rounds, perRound) = (env.int("BENCH_AGE_ROUNDS", 20), env.int("BENCH_AGE_PER_ROUND", 50))
        var samples: [String: [String: LatencySamples]] = ["fresh": [:], "aged": [:]]
        for round in 0..<rounds {
            for (name, subject) in round % 2 == 0 ? [("fresh", fresh), ("aged", aged)] : [("aged", aged), ("fresh", fresh)] {
                samples[name, default: [:]]["shell_echo", default: LatencySamples(capacity: 0)].append(
                    contentsOf: try await echo(subject.shell, &subject.terminal, count: perRound))
                samples[name, default: [:]]["exec", default: LatencySamples(capacity: 0)].append(
                    contentsOf: try await Benchmarks.execTrue(subject.connection, count: perRound))
                samples[name, default: [:]]["sftp_stat", default: LatencySamples(capacity: 0)].append(
                    contentsOf: try await stat(subject.connection, count: perRound))
            }
        }
        var lines = [
            "| \(kind.rawValue), \(count) keepalives | fresh p50 / p99 ms | aged p50 / p99 ms | ratio p50 / p99 |",
            "|---|---:|---:|---:|",
        ]
        for operation in ["shell_echo", "exec", "sftp_stat"] {
            let (a, b) = (samples["fresh"]![operation]!, samples["aged"]![operation]!)
            lines.append(
                String(
                    format: "| %@ | %.3f / %.3f | %.3f / %.3f | %.3f / %.3f |", operation, a.percentile(0.5), a.percentile(0.99),
                    b.percentile(0.5), b.percentile(0.99), b.percentile(0.5) / a.percentile(0.5), b.percentile(0.99) / a.percentile(0.99)))
        }
        lines.append("\nRSS growth while the aged connection took its keepalives: \(rssGrowth) KiB; \(rounds * perRound) samples each")
        print(lines.joined(separator: "\n"))
        await fresh.close()
        await aged.close()
        return true
    }

    /// One measured connection: its shell (prompt set) and SFTP session, opened before the first sample.
    final class Subject {
        let connection: SSHConnection
        let shell: InteractiveShell
        var terminal: TerminalReader

        init(_ configuration: SSHConnectionConfiguration) async throws {
            connection = try await SSHConnection.connect(configuration)
            shell = try await connection.openShell()
            terminal = TerminalReader(shell.output)
            try await shell.send("PS1='> '; echo RWS''READY\r")
            try await terminal.waitFor("RWSREADY")
            try await terminal.waitFor("> ")
            _ = try await connection.stat("/")
        }

        func close() async {
            try? await shell.close()
            await connection.close()
        }
    }

    private static func echo(_ shell: InteractiveShell, _ terminal: inout TerminalReader, count: Int) async throws -> LatencySamples {
        var samples = LatencySamples(capacity: count)
        for index in 0..<count {
            let typeLetter = index % 2 == 0
            let start = ContinuousClock.now
            try await shell.send(typeLetter ? [UInt8(ascii: "a")] : [0x7F])
            try await terminal.waitFor(typeLetter ? [UInt8(ascii: "a")] : [0x08])
            samples.append(since: start)
        }
        return samples
    }

    private static func stat(_ connection: SSHConnection, count: Int) async throws -> LatencySamples {
        var samples = LatencySamples(capacity: count)
        for _ in 0..<count {
            let start = ContinuousClock.now
            _ = try await connection.stat("/etc/passwd")
            samples.append(since: start)
        }
        return samples
    }

    /// A Markdown table of the stages: p50/p99 in ms of each operation, and RSS.
    private static func table(_ rows: [[String: Any]]) -> String {
        var lines = [
            "| stage | keepalives | shell echo p50/p99 ms | exec p50/p99 ms | SFTP stat p50/p99 ms | RSS MiB |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for row in rows {
            func cell(_ key: String) -> String {
                let summary = row[key] as? [String: Double] ?? [:]
                return String(format: "%.3f / %.3f", summary["p50"] ?? .nan, summary["p99"] ?? .nan)
            }
            let rss = Double(row["rssKiB"] as? Int ?? 0) / 1024
            lines.append(
                "| \(row["stage"] ?? "") | \(row["keepalives"] ?? 0) | \(cell("shell_echo")) | \(cell("exec")) | \(cell("sftp_stat")) | "
                    + String(format: "%.1f |", rss))
        }
        return lines.joined(separator: "\n")
    }
}
