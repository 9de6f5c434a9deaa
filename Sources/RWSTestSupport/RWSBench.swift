import Foundation

/// `rws-bench` (built beside the test binaries) run to its end from a test: the long checks
/// (`soak`, `fault-soak`) print a JSON summary on stdout and their log on stderr.
public enum RWSBench {
    /// How a run ended.
    public struct Outcome: Sendable {
        /// The exit status (0: the check passed).
        public let status: Int32
        /// Everything printed on stdout: the JSON summary.
        public let stdout: Data
        /// Everything printed on stderr.
        public let log: String
    }

    /// Runs `rws-bench arguments` with exactly `environment`.
    public static func run(_ arguments: [String], environment: [String: String]) async throws -> Outcome {
        let bench = URL(fileURLWithPath: RWSBinary.path).deletingLastPathComponent().appendingPathComponent("rws-bench").path
        guard FileManager.default.isExecutableFile(atPath: bench) else {
            throw TestServerError.commandFailed("\(bench) is missing: build the tests with `swift build --build-tests`, which builds it")
        }
        // A soak runs for minutes: its wait must not hold a thread of the cooperative pool.
        let ended = try await Blocking.onThread { try Spawn.capture(bench, arguments, environment: environment) }
        return Outcome(status: ended.status, stdout: Data(ended.output), log: ended.stderr)
    }
}
