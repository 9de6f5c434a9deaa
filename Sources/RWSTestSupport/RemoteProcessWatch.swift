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
    /// One row of `ps`.
    public struct Process: Sendable, CustomStringConvertible {
        /// Process id.
        public var pid: Int
        /// Parent process id.
        public var parent: Int
        /// Process group id.
        public var group: Int
        /// `ps` state letters; `Z` first for a zombie.
        public var state: String
        /// The command line.
        public var arguments: String

        /// `pid pgid state args`, as `ps` shows it.
        public var description: String { "\(pid) \(group) \(state) \(arguments)" }
    }

    /// The texts that together name the command's processes.
    public let markers: [String]
    private let lock = NSLock()
    private var groups: Set<Int> = []
    private var seen: Set<Int> = []

    /// Watches the processes whose command line holds all of `markers`.
    public init(markers: String...) {
        self.markers = markers
    }

    /// Every live (non-zombie) process on the machine.
    public static func liveProcesses() throws -> [Process] {
        try Shell.run("/bin/ps", ["-eo", "pid=,ppid=,pgid=,stat=,args="]).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: true)
            guard fields.count >= 4, let pid = Int(fields[0]), let parent = Int(fields[1]), let group = Int(fields[2]) else { return nil }
            let state = String(fields[3])
            guard !state.hasPrefix("Z") else { return nil }
            return Process(pid: pid, parent: parent, group: group, state: state, arguments: fields.count > 4 ? String(fields[4]) : "")
        }
    }

    /// The command's live processes now; remembers them (and the groups they lead) for later looks.
    public func running() throws -> [Process] {
        let table = try Self.liveProcesses()
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
            if try !running().isEmpty { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// Waits until none of the command's processes is left; returns the ones still there after `seconds`.
    public func leftovers(after seconds: Double) async throws -> [Process] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            let left = try running()
            if left.isEmpty || ContinuousClock.now >= deadline { return left }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Sends `signal` to each of the command's processes, as someone on the box would.
    public func signal(_ signal: Int32) throws {
        for process in try running() { try SystemCall.kill(pid_t(process.pid), signal) }
    }
}
