import Foundation

/// Runs the built `rws` executable, as a person would, and captures what it prints.
public enum RWSBinary {
    /// What one run printed and how it exited.
    public struct Outcome: Sendable {
        /// Standard output.
        public var stdout: String
        /// Standard error.
        public var stderr: String
        /// Exit status (128 + N when signal N killed rws).
        public var status: Int32
        /// The signal that killed rws, when one did instead of rws exiting by itself.
        public var killedBy: Int32? = nil
    }

    /// The `rws` in the build products folder of the running test bundle: the CLI tests depend on
    /// the `rws` target, so building them builds it there.
    public static var path: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("rws").path
    }

    /// Runs `rws` with `arguments`, `stdin` as its input, and `environment` added to a clean one
    /// whose HOME is `home` (never the real home). The wait is on a thread of its own
    /// (``Blocking``), so tests running beside it go on.
    public static func run(
        _ arguments: [String], stdin: String = "", home: String,
        environment: [String: String] = [:]
    ) async throws -> Outcome {
        try await Blocking.onThread { try runToEnd(arguments, stdin: stdin, home: home, environment: environment) }
    }

    /// ``run(_:stdin:home:environment:)`` on the calling thread, for where nothing can wait (a
    /// `defer`): it blocks that thread until `rws` ends.
    public static func runToEnd(
        _ arguments: [String], stdin: String = "", home: String, environment: [String: String] = [:]
    ) throws -> Outcome {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestServerError.commandFailed("\(path) is missing: build the tests with `swift build --build-tests`, which builds it")
        }
        let ended = try Spawn.capture(
            path, arguments, environment: cleanEnvironment(home: home, adding: environment), stdin: Array(stdin.utf8))
        return Outcome(stdout: ended.stdout, stderr: ended.stderr, status: ended.status, killedBy: ended.signal)
    }

    /// The clean environment `rws` runs in: `HOME` is `home`, then `extra`.
    static func cleanEnvironment(home: String, adding extra: [String: String] = [:]) -> [String: String] {
        ["HOME": home, "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"].merging(extra) { $1 }
    }
}

extension TestSSHServer {
    /// The connection flags for `rws` that reach this server with its throwaway key and known_hosts.
    public var rwsFlags: [String] {
        [
            "--host", "\(user)@127.0.0.1:\(port)", "--identity", clientKeyPath, "--known-hosts", knownHostsPath,
            "-F", directory.path + "/empty_ssh_config",
        ]
    }
}
