import Foundation
import Platform

/// Finds a remote command's processes in the local process table (the test servers run on this
/// machine), so a test can prove they are gone rather than assume it.
///
/// A process belongs to the command when its command line holds every one of `markers`, when it
/// descends from one that did (seen by an earlier look, so it counts even once orphaned), or when
/// it is in the process group such a process leads (OpenSSH: a `sleep` started between two looks).
/// A group the server's own process leads (dropbear runs commands in its per-connection group)
/// is not the command's. Zombies do not count: PID 1 here does not reap, so killed children can
/// stay zombies forever.
public final class RemoteProcessWatch: @unchecked Sendable {
    /// The texts that together name the command's processes.
    public let markers: [String]
    private let lock = NSLock()
    private var groups: Set<Int32> = []
    private var seen: Set<Int32> = []

    /// Watches the processes whose command line holds all of `markers`.
    public init(markers: String...) {
        self.markers = markers
    }

    /// The command's live processes now; remembers them (and the groups they lead) for later looks.
    public func running() -> [LocalProcessTable.Process] {
        let table = LocalProcessTable.processes().filter { !$0.isZombie }
        return lock.withLock {
            var frontier = table.filter { markers.allSatisfy($0.arguments.contains) }.map(\.pid)
            for process in table where frontier.contains(process.pid) && process.pid == process.group { groups.insert(process.group) }
            while let next = frontier.popLast() {
                seen.insert(next)
                frontier += table.filter { $0.parent == next && !seen.contains($0.pid) }.map(\.pid)
            }
            return table.filter { seen.contains($0.pid) || groups.contains($0.group) }
        }
    }

    /// Waits until the command runs; false when it does not within `seconds`.
    public func waitUntilRunning(within seconds: Double) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if !running().isEmpty { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// Waits until none of the command's processes is left; returns the ones still there after `seconds`.
    public func leftovers(after seconds: Double) async throws -> [LocalProcessTable.Process] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            let left = running()
            if left.isEmpty || ContinuousClock.now >= deadline { return left }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Sends `signal` to each of the command's processes, as someone on the box would.
    public func signal(_ signal: Int32) throws {
        for process in running() { try SystemCall.kill(process.pid, signal) }
    }
}
