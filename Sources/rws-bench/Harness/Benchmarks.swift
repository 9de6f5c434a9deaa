import Foundation
import SSHClient

/// Every benchmark this client runs, by the harness's names.
enum Benchmarks {
    typealias Run = @Sendable (BenchEnvironment) async throws -> String

    static let all: [String: Run] = [
        "info": info, "connect": connect, "exec_seq": execSequential, "exec_conc": execConcurrent,
        "bulk": bulk, "exec_ls": execList, "exec_cat": execCat, "sftp_ls": sftpList, "sftp_read": sftpRead,
        "exec_latency": execLatency, "shell_echo": shellEcho, "sftp_stat": sftpStat,
    ]

    static func info(_ env: BenchEnvironment) async throws -> String {
        "rws (libssh2 \(SSHConnection.libssh2Version)): kex=curve25519-sha256 hostkey=ssh-ed25519 cipher=aes128-ctr/aes128-ctr "
            + "mac=hmac-sha2-256/hmac-sha2-256 compression=none/none tcp_nodelay=1"
    }

    /// Connect + kex + host key + auth + disconnect, after one untimed warm-up connection.
    static func connect(_ env: BenchEnvironment) async throws -> String {
        await (try env.connect()).close()
        let start = ContinuousClock.now
        let connection = try await env.connect()
        await connection.close()
        return String(format: "%.2f", seconds(since: start) * 1000)
    }

    /// N × `true` one after another on one connection: milliseconds per command.
    static func execSequential(_ env: BenchEnvironment) async throws -> String {
        let connection = try await env.connect()
        defer { Task { await connection.close() } }
        _ = try await connection.run("true")
        let count = env.int("BENCH_SEQ_N", 200)
        let start = ContinuousClock.now
        for _ in 0..<count {
            let result = try await connection.run("true")
            guard result.status == .exited(0) else { throw BenchFailure("true exited \(result.status)") }
        }
        let elapsed = seconds(since: start)
        await connection.close()
        return String(format: "%.3f", elapsed * 1000 / Double(count))
    }

    /// N commands started at once on one connection: wall milliseconds until all have exited.
    static func execConcurrent(_ env: BenchEnvironment) async throws -> String {
        let connection = try await env.connect()
        _ = try await connection.run("true")
        let count = env.int("BENCH_CONC_N", 50)
        let command = env.string("BENCH_CONC_CMD", "sleep 0.2; echo x")
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: CommandResult.self) { group in
            for _ in 0..<count { group.addTask { try await connection.run(command) } }
            for try await result in group where result.stdoutText != "x\n" || result.status != .exited(0) {
                throw BenchFailure("unexpected result \(result.stdoutText.debugDescription) \(result.status)")
            }
        }
        let elapsed = seconds(since: start)
        await connection.close()
        return String(format: "%.1f", elapsed * 1000)
    }

    /// `head -c N /dev/zero` streamed and discarded: MB/s.
    static func bulk(_ env: BenchEnvironment) async throws -> String {
        let bytes = env.int("BENCH_BULK_BYTES", 1_000_000_000)
        let connection = try await env.connect()
        let start = ContinuousClock.now
        let received = try await countStream(connection, "head -c \(bytes) /dev/zero")
        let elapsed = seconds(since: start)
        await connection.close()
        guard received == bytes else { throw BenchFailure("received \(received) of \(bytes) bytes") }
        return String(format: "%.1f", Double(bytes) / elapsed / 1e6)
    }

    /// `ls -laF DIR` into memory: milliseconds; line count checked.
    static func execList(_ env: BenchEnvironment) async throws -> String {
        let directory = env.string("BENCH_DIR", "/tmp/bench-dir")
        let connection = try await env.connect()
        let start = ContinuousClock.now
        let result = try await connection.run("ls -laF " + (try ShellQuoting.quote(directory)))
        let elapsed = seconds(since: start)
        await connection.close()
        let lines = result.stdout.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
        guard lines >= env.int("BENCH_DIR_COUNT", 10000) else { throw BenchFailure("only \(lines) lines") }
        return String(format: "%.1f", elapsed * 1000)
    }

    /// `cat FILE` into memory: MB/s; size checked.
    static func execCat(_ env: BenchEnvironment) async throws -> String {
        let file = env.string("BENCH_FILE", "/tmp/bench-file.txt")
        let expected = env.int("BENCH_FILE_BYTES", 50_000_000)
        let connection = try await env.connect()
        let start = ContinuousClock.now
        let result = try await connection.run("cat " + (try ShellQuoting.quote(file)))
        let elapsed = seconds(since: start)
        await connection.close()
        guard result.stdout.count == expected else { throw BenchFailure("read \(result.stdout.count) of \(expected) bytes") }
        return String(format: "%.1f", Double(expected) / elapsed / 1e6)
    }

    private static func countStream(_ connection: SSHConnection, _ command: String) async throws -> Int {
        let remote = try connection.stream(command, bufferSize: 8 << 20)
        var total = 0
        for try await event in remote.output {
            if case .stdout(let bytes) = event { total += bytes.count }
        }
        guard try await remote.exitStatus() == .exited(0) else { throw BenchFailure("\(command) failed") }
        return total
    }
}
