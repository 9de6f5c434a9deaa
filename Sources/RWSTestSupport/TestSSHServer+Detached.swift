import Foundation
import Platform

extension TestSSHServer {
    /// Stops the OpenSSH server that ``detach()`` left running in `directory`: signals it and every
    /// process under it, then waits (up to 5 s) until the process table no longer shows it.
    /// Nothing to stop (no PID file, or its process is not sshd any more) is no error.
    public static func stopDetached(directory: URL) throws {
        let pidFile = directory.path + "/sshd.pid"
        guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
            let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return }
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        // A PID file left by a killed server may name a reused PID: only an sshd is signalled.
        guard command(of: pid) == "sshd" else { return }
        signalTree(pid, SIGKILL)
        let deadline = ContinuousClock.now + .seconds(5)
        while isRunning(pid) {
            guard ContinuousClock.now < deadline else {
                throw TestServerError.commandFailed("sshd (PID \(pid)) still runs 5 s after SIGKILL")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    private static func command(of pid: pid_t) -> String? {
        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether `pid` is in the process table and not a zombie (dead, waiting for its parent to reap it).
    private static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let nameEnd = stat.lastIndex(of: ")")
        else { return false }
        // The state follows the command name, which sits in parentheses and may hold anything.
        let state = stat[stat.index(after: nameEnd)...].drop { $0 == " " }.first
        return state != "Z" && state != "X"
    }
}
