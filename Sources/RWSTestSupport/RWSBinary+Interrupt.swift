import Foundation
import Platform

extension RWSBinary {
    /// Runs `rws` with `arguments`, sends it `signal` (by default SIGINT, what Ctrl+C sends) once
    /// its stdout shows `marker`, and returns what it printed and how it exited.
    ///
    /// Started with ``Spawn``'s empty signal mask and default handlers, as from a shell: a child
    /// of a test thread would otherwise inherit signals that thread blocks.
    public static func interrupted(
        _ arguments: [String], home: String, after marker: String, signal: Int32 = SIGINT,
        within limit: Duration = .seconds(10)
    ) async throws -> Outcome {
        try await run(arguments, home: home, after: marker, within: limit) { child in try SystemCall.kill(child, signal) }
    }

    /// Runs `rws` with `arguments`, calls `action` with its PID once its stdout shows `marker`
    /// (unless it exited first), waits for its end, and returns what it printed and how it exited.
    public static func run(
        _ arguments: [String], home: String, after marker: String, within limit: Duration = .seconds(10),
        _ action: @escaping @Sendable (pid_t) throws -> Void
    ) async throws -> Outcome {
        try await run(arguments, home: home, until: { $0.contains(marker) }, within: limit, action)
    }

    /// Runs `rws` with `arguments`, calls `action` with its PID once `ready` holds for what its
    /// stdout shows so far (unless it exited first, or `limit` passed), waits for its end, and
    /// returns what it printed and how it exited. The waiting is on a thread of its own (``Blocking``).
    /// With `openFiles`, rws runs with that many file descriptors at most (`ulimit -n`, set by the
    /// shell that then `exec`s it: the PID is rws's).
    public static func run(
        _ arguments: [String], home: String, until ready: @escaping @Sendable (_ stdout: String) -> Bool,
        within limit: Duration = .seconds(10), openFiles: Int? = nil, _ action: @escaping @Sendable (pid_t) throws -> Void
    ) async throws -> Outcome {
        let (program, arguments) =
            openFiles.map { ("/bin/sh", ["-c", "ulimit -n \($0) && exec \"$0\" \"$@\"", path] + arguments) } ?? (path, arguments)
        let log = crashLog
        return try await Blocking.onThread {
            try RWSBinary.$crashLog.withValue(log) { try runBlocking(program, arguments, home: home, until: ready, within: limit, action) }
        }
    }

    private static func runBlocking(
        _ path: String, _ arguments: [String], home: String, until ready: (_ stdout: String) -> Bool, within limit: Duration,
        _ action: (pid_t) throws -> Void
    ) throws -> Outcome {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("rws-int-\(UUID().uuidString.prefix(8))").path
        let outPath = base + ".out", errPath = base + ".err"
        defer { for path in [outPath, errPath] { try? FileManager.default.removeItem(atPath: path) } }
        let environment = cleanEnvironment(home: home).map { "\($0.key)=\($0.value)" }
        let child = try Spawn.start(path, arguments, environment: environment, stdoutPath: outPath, stderrPath: errPath)
        let deadline = ContinuousClock.now + limit
        var status: Int32 = 0
        var exited = false
        while !exited {
            if ready((try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "") { break }
            if ContinuousClock.now > deadline { break }
            exited = waitpid(child, &status, WNOHANG) == child
            Thread.sleep(forTimeInterval: 0.02)
        }
        if !exited {
            try action(child)
            // A rws that outlives its signal by a minute is a failure to report, not a test to hang.
            status = Spawn.wait(for: child, killingGroupAfter: .seconds(60))
        }
        let stdout = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return noted(
            Outcome(stdout: stdout, stderr: stderr, status: Spawn.exitCode(status), killedBy: Spawn.signal(status)), arguments,
            log: crashLog)
    }
}
