import Foundation
import Platform
import RWSTestSupport
import Testing

/// The test servers run on this machine, so the local process table is the remote one.
enum RemoteProcesses {
    /// Live (not zombie) processes whose command line contains `marker`, as "PID STATE ARGS".
    static func matching(_ marker: String) -> [String] {
        LocalProcessTable.live(containing: marker).map(\.description)
    }

    /// The PIDs of live processes whose whole command line is `commandLine` (the shells that
    /// run a command hold it in their own arguments too, so ``matching(_:)`` finds those as well).
    static func pids(running commandLine: String) -> [Int] {
        LocalProcessTable.live(running: commandLine).map { Int($0.pid) }
    }

    /// A number no other test uses, for `sleep N` markers.
    static func uniqueSeconds() -> Int { Int.random(in: 100_000...999_999) }

    /// Waits up to `limit` for `condition`; records an issue, with what `state` then says, when it never holds.
    static func waitUntil(
        within limit: Duration = .seconds(5), state: () -> String = { "" }, _ condition: () throws -> Bool
    ) async throws {
        if try await !Eventually.holds(within: limit, every: .milliseconds(20), condition) {
            Issue.record("condition not met in \(limit)\(state().isEmpty ? "" : ": " + state())")
        }
    }

    /// Kills what a test deliberately left running.
    static func killLocally(_ pids: [Int]) {
        // Cleanup: a process already gone is what was wanted.
        for pid in pids { try? SystemCall.kill(pid_t(pid), SIGKILL) }
    }
}
