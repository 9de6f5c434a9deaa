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
    ) throws -> Outcome {
        try run(arguments, home: home, after: marker, within: limit) { child in try SystemCall.kill(child, signal) }
    }

    /// Runs `rws` with `arguments`, calls `action` with its PID once its stdout shows `marker`
    /// (unless it exited first), waits for its end, and returns what it printed and how it exited.
    public static func run(
        _ arguments: [String], home: String, after marker: String, within limit: Duration = .seconds(10),
        _ action: (pid_t) throws -> Void
    ) throws -> Outcome {
        try run(arguments, home: home, until: { $0.contains(marker) }, within: limit, action)
    }

    /// Runs `rws` with `arguments`, calls `action` with its PID once `ready` holds for what its
    /// stdout shows so far (unless it exited first, or `limit` passed), waits for its end, and
    /// returns what it printed and how it exited.
    public static func run(
        _ arguments: [String], home: String, until ready: (_ stdout: String) -> Bool, within limit: Duration = .seconds(10),
        _ action: (pid_t) throws -> Void
    ) throws -> Outcome {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("rws-int-\(UUID().uuidString.prefix(8))").path
        let outPath = base + ".out", errPath = base + ".err"
        defer { for path in [outPath, errPath] { try? FileManager.default.removeItem(atPath: path) } }
        let environment = ["HOME=\(home)", "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"]
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
            while waitpid(child, &status, 0) < 0, errno == EINTR {}
        }
        let stdout = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        // WIFEXITED ? WEXITSTATUS : 128 + WTERMSIG, spelled out because the C macros are not imported.
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + status & 0x7F
        return Outcome(stdout: stdout, stderr: stderr, status: code, killedBy: status & 0x7F == 0 ? nil : status & 0x7F)
    }
}
