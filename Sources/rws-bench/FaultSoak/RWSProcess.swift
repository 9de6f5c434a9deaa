import Foundation
import Platform
import RWSTestSupport

/// An `rws` command line run as a user runs it: its own process, stdout and stderr to files,
/// HOME a sandbox; awaited without blocking a thread of the concurrency pool.
struct RWSProcess: Sendable {
    /// How it ended: an exit status, or 128 + the signal that killed it.
    struct Outcome: Sendable {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    let pid: pid_t
    private let outPath: String
    private let errPath: String

    /// Starts `rws arguments` with HOME `home`.
    init(_ rws: String, _ arguments: [String], home: String) throws {
        let base = NSTemporaryDirectory() + "rws-fault-soak-\(UUID().uuidString.prefix(8))"
        (outPath, errPath) = (base + ".out", base + ".err")
        pid = try Spawn.start(
            rws, arguments, environment: ["HOME=\(home)", "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"],
            stdoutPath: outPath, stderrPath: errPath)
    }

    /// What it printed on stdout so far.
    var stdoutSoFar: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }

    /// Waits for the end, at most `limit` (then kills it: status nil); removes the output files.
    func wait(within limit: Duration) async -> Outcome? {
        let deadline = ContinuousClock.now + limit
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) != pid {
            guard ContinuousClock.now < deadline else {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                removeFiles()
                return nil
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        defer { removeFiles() }
        // WIFEXITED ? WEXITSTATUS : 128 + WTERMSIG, spelled out because the C macros are not imported.
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + status & 0x7F
        return Outcome(
            status: code, stdout: stdoutSoFar, stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }

    private func removeFiles() {
        for path in [outPath, errPath] { try? FileManager.default.removeItem(atPath: path) }
    }
}
