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
        let log = crashLog
        return try await Blocking.onThread {
            try RWSBinary.$crashLog.withValue(log) { try runToEnd(arguments, stdin: stdin, home: home, environment: environment) }
        }
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
        return noted(
            Outcome(stdout: ended.stdout, stderr: ended.stderr, status: ended.status, killedBy: ended.signal), arguments, log: crashLog)
    }

    /// The signals of a crash, as opposed to one a test sends to stop rws.
    static let crashSignals: Set<Int32> = [SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE, SIGTRAP, SIGSYS]

    /// Where crashes are noted: the file `RWS_TEST_CRASH_LOG` names, unless a test that crashes
    /// rws on purpose names its own here.
    @TaskLocal public static var crashLog: String? = ProcessInfo.processInfo.environment["RWS_TEST_CRASH_LOG"]

    /// `outcome`, after appending it to `log` (``crashLog`` where the run started) when rws
    /// crashed (died of a crash signal, or Swift's backtracer reported one): `scripts/test` fails
    /// the run on any crash there, whatever the test asserted.
    static func noted(_ outcome: Outcome, _ arguments: [String], log: String?) -> Outcome {
        // Swift's backtracer says so first; a fault it does not survive then kills rws with the signal.
        let reported = outcome.stderr.contains("*** Program crashed")
        guard reported || outcome.killedBy.map(crashSignals.contains) == true, let log, !log.isEmpty else { return outcome }
        let how = outcome.killedBy.map { "died of signal \($0)" } ?? "reported a crash"
        let record = "== rws \(arguments.joined(separator: " ")) \(how); its stderr:\n\(outcome.stderr)\n"
        if let handle = FileHandle(forWritingAtPath: log)
            ?? (FileManager.default.createFile(atPath: log, contents: nil)
                ? FileHandle(forWritingAtPath: log) : nil)
        {
            handle.seekToEndOfFile()
            handle.write(Data(record.utf8))
            try? handle.close()
        }
        return outcome
    }

    /// The clean environment `rws` runs in: `HOME` is `home`, then `extra`. A crash prints
    /// Swift's backtrace of every thread on stderr, which the failing test then shows.
    static func cleanEnvironment(home: String, adding extra: [String: String] = [:]) -> [String: String] {
        [
            "HOME": home, "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
            "SWIFT_BACKTRACE": "enable=yes,interactive=no,color=no,threads=all",
        ].merging(extra) { $1 }
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
