import Foundation
import SSHClient

/// The SFTP benchmarks. As the harness defines them, each timed region includes starting the
/// SFTP session (the first file call opens it); unlike the C client's, it does not include
/// shutting the session down, which rws keeps open for the connection's life.
extension Benchmarks {
    /// SFTP is forced: a server without it fails the run instead of measuring the shell fallback.
    private static func connectForSFTP(_ env: BenchEnvironment) async throws -> SSHConnection {
        try env.checkAlgorithms()
        var configuration = env.configuration
        configuration.fileTransport = .sftp
        return try await SSHConnection.connect(configuration)
    }

    /// Start SFTP + list the 10,000-entry directory with attributes: milliseconds; count checked.
    static func sftpList(_ env: BenchEnvironment) async throws -> String {
        let directory = env.string("BENCH_DIR", "/tmp/bench-dir")
        let connection = try await connectForSFTP(env)
        let start = ContinuousClock.now
        let entries = try await connection.listDirectory(directory)
        let elapsed = seconds(since: start)
        await connection.close()
        guard entries.count >= env.int("BENCH_DIR_COUNT", 10000) else { throw BenchFailure("only \(entries.count) entries") }
        return String(format: "%.1f", elapsed * 1000)
    }

    /// Start SFTP + read the 50 MB file into memory: MB/s; size checked.
    static func sftpRead(_ env: BenchEnvironment) async throws -> String {
        let file = env.string("BENCH_FILE", "/tmp/bench-file.txt")
        let expected = env.int("BENCH_FILE_BYTES", 50_000_000)
        let connection = try await connectForSFTP(env)
        let start = ContinuousClock.now
        let bytes = try await connection.readFile(file)
        let elapsed = seconds(since: start)
        await connection.close()
        guard bytes.count == expected else { throw BenchFailure("read \(bytes.count) of \(expected) bytes") }
        return String(format: "%.1f", Double(expected) / elapsed / 1e6)
    }
}
