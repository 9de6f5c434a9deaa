import Foundation
import SSHClient

/// Tail-latency benchmarks: one operation at a time on one connection, every one timed.
/// `BENCH_LAT_N` operations (default 2,000) after `BENCH_LAT_WARMUP` untimed ones (default 10).
/// `scripts/lib/libssh2_latency.c` does the same with plain libssh2 calls.
extension Benchmarks {
    /// `true` over exec, one after another: per-command latency (open, exec, read to EOF, exit status, close).
    static func execLatency(_ env: BenchEnvironment) async throws -> String {
        let connection = try await env.connect()
        let (count, warmup) = (env.int("BENCH_LAT_N", 2000), env.int("BENCH_LAT_WARMUP", 10))
        for _ in 0..<warmup { _ = try await connection.run("true") }
        let before = PollCounters(connection)
        let samples = try await execTrue(connection, count: count)
        let polls = PollCounters(connection).minus(before)
        await connection.close()
        return try samples.report(env, extra: polls.fields)
    }

    /// `count` × `true` over exec, each timed.
    static func execTrue(_ connection: SSHConnection, count: Int) async throws -> LatencySamples {
        var samples = LatencySamples(capacity: count)
        for _ in 0..<count {
            let start = ContinuousClock.now
            let result = try await connection.run("true")
            samples.append(since: start)
            guard result.status == .exited(0) else { throw BenchFailure("true exited \(result.status)") }
        }
        return samples
    }

    /// A key typed into a PTY login shell until the terminal echoes it: `a`, then DEL, alternately,
    /// so that the line stays empty. Each key is one sample.
    static func shellEcho(_ env: BenchEnvironment) async throws -> String {
        let connection = try await env.connect()
        let shell = try await connection.openShell()
        var terminal = TerminalReader(shell.output)
        // A prompt without `a` or backspace in it, then wait until it is shown.
        try await shell.send("PS1='> '; echo RWS''READY\r")
        try await terminal.waitFor("RWSREADY")
        try await terminal.waitFor("> ")
        let (count, warmup) = (env.int("BENCH_LAT_N", 2000), env.int("BENCH_LAT_WARMUP", 10))
        var samples = LatencySamples(capacity: count)
        let before = PollCounters(connection)
        for index in 0..<(warmup + count) {
            let typeLetter = index % 2 == 0
            let start = ContinuousClock.now
            try await shell.send(typeLetter ? [UInt8(ascii: "a")] : [0x7F])
            // Readline erases with a backspace (0x08); the letter comes back as itself.
            try await terminal.waitFor(typeLetter ? [UInt8(ascii: "a")] : [0x08])
            if index >= warmup { samples.append(since: start) }
        }
        let polls = PollCounters(connection).minus(before)
        try await shell.close()
        await connection.close()
        return try samples.report(env, extra: polls.fields)
    }

    /// One SFTP `lstat` of `BENCH_STAT_PATH` (default /etc/passwd) at a time; the SFTP session is
    /// opened by the untimed warm-up.
    static func sftpStat(_ env: BenchEnvironment) async throws -> String {
        try env.checkAlgorithms()
        var configuration = env.configuration
        configuration.fileTransport = .sftp
        let connection = try await SSHConnection.connect(configuration)
        let path = env.string("BENCH_STAT_PATH", "/etc/passwd")
        let (count, warmup) = (env.int("BENCH_LAT_N", 2000), env.int("BENCH_LAT_WARMUP", 10))
        for _ in 0..<warmup { _ = try await connection.stat(path) }
        var samples = LatencySamples(capacity: count)
        let before = PollCounters(connection)
        for _ in 0..<count {
            let start = ContinuousClock.now
            let entry = try await connection.stat(path)
            samples.append(since: start)
            guard entry.attributes.size > 0 else { throw BenchFailure("\(path): size \(entry.attributes.size)") }
        }
        let polls = PollCounters(connection).minus(before)
        await connection.close()
        return try samples.report(env, extra: polls.fields)
    }
}

/// Reads a shell's output until an expected byte string shows up.
struct TerminalReader {
    private var iterator: ShellOutput.AsyncIterator
    private var buffer: [UInt8] = []

    init(_ output: ShellOutput) { iterator = output.makeAsyncIterator() }

    mutating func waitFor(_ text: String) async throws { try await waitFor(Array(text.utf8)) }

    /// Returns once `pattern` arrived; drops everything up to its end.
    mutating func waitFor(_ pattern: [UInt8]) async throws {
        while true {
            if let end = Self.end(of: pattern, in: buffer) {
                buffer.removeSubrange(..<end)
                return
            }
            guard let chunk = try await iterator.next() else {
                throw BenchFailure("the shell ended before printing \(String(decoding: pattern, as: UTF8.self).debugDescription)")
            }
            buffer.append(contentsOf: chunk)
        }
    }

    private static func end(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        for start in 0...(bytes.count - pattern.count) where bytes[start..<(start + pattern.count)].elementsEqual(pattern) {
            return start + pattern.count
        }
        return nil
    }
}
