import Foundation
import Platform

/// Processes that keep every core of this machine (which is the test box) busy, twice over by
/// default: the box under load, where rws and the SSH server get a share of the CPU, not all of it.
public final class CPULoad: Sendable {
    /// The PIDs of the processes spinning.
    public let pids: [pid_t]

    /// Starts `perCore` spinning processes for each core (`yes` into /dev/null: pure CPU).
    public init(perCore: Int = 2) throws {
        let count = perCore * ProcessInfo.processInfo.activeProcessorCount
        var started: [pid_t] = []
        do {
            for _ in 0..<count {
                started.append(try Spawn.start("/usr/bin/yes", ["rws-cpu-load"], environment: [], stdoutPath: "/dev/null", stderrPath: nil))
            }
        } catch {
            Self.end(started)
            throw error
        }
        pids = started
    }

    /// Ends the load and reaps its processes.
    public func stop() { Self.end(pids) }

    private static func end(_ pids: [pid_t]) {
        for pid in pids { try? SystemCall.kill(pid, SIGKILL) }
        for pid in pids { _ = Spawn.wait(for: pid) }
    }
}
