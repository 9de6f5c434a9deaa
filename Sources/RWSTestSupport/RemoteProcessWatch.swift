import Foundation

/// Finds a remote command's processes in the local process table (the test servers run on this
/// machine), so a test can prove they are gone rather than assume it.
///
/// A process belongs to the command when its command line holds every one of `markers`, or when it
/// is in the process group of one that did (a `sleep` the command runs does not show the marker).
/// Zombies do not count: PID 1 here does not reap, so killed children can stay zombies forever.
public final class RemoteProcessWatch: @unchecked Sendable {
    /// One row of `ps`.
    public struct Process: Sendable, CustomStringConvertible {
        /// Process id.
        public var pid: Int
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

    /// Watches the processes whose command line holds all of `markers`.
    public init(markers: String...) {
        self.markers = markers
    }

    private func isMarked(_ process: Process) -> Bool {
        markers.allSatisfy { process.arguments.contains($0) }
    }

    /// Every live (non-zombie) process on the machine.
    public static func liveProcesses() throws -> [Process] {
        try Shell.run("/bin/ps", ["-eo", "pid=,pgid=,stat=,args="]).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
            guard fields.count >= 3, let pid = Int(fields[0]), let group = Int(fields[1]) else { return nil }
            let state = String(fields[2])
            guard !state.hasPrefix("Z") else { return nil }
            return Process(pid: pid, group: group, state: state, arguments: fields.count > 3 ? String(fields[3]) : "")
        }
    }

    /// The command's live processes now; remembers their process groups for later calls.
    public func running() throws -> [Process] {
        let table = try Self.liveProcesses()
        let found = lock.withLock { () -> [Process] in
            for process in table where isMarked(process) { groups.insert(process.group) }
            return table.filter { isMarked($0) || groups.contains($0.group) }
        }
        return found
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

    /// Kills what is left of the command (SIGKILL to its process groups), so that a failed test
    /// leaves nothing running behind it.
    public func killAll() throws {
        for group in Set(try running().map(\.group)) { kill(pid_t(-group), SIGKILL) }
    }
}
