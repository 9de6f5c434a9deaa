import Foundation
import Platform

/// This machine's processes as `/proc` shows them: for tests that look at the process table.
///
/// Read in-process rather than through `ps`: on a machine running the suite a `ps` costs ~20 ms
/// of CPU (it reads several files of every process), and the suite's waits look many times a
/// second.
public enum LocalProcessTable {
    /// One process, as `/proc/PID/stat` and `/proc/PID/cmdline` show it.
    public struct Process: Sendable, Equatable, CustomStringConvertible {
        /// Process id.
        public var pid: Int32
        /// Parent process id.
        public var parent: Int32
        /// Process group id.
        public var group: Int32
        /// Session id.
        public var session: Int32
        /// The state letter: `R`, `S`, `D`, `T` (stopped), `Z` (zombie), ...
        public var state: Character
        /// The command line, its arguments joined by spaces; `[name]` when it has none (a kernel
        /// thread, a zombie), as `ps` shows it.
        public var arguments: String

        /// Whether it is dead and only unreaped (PID 1 here does not reap, so zombies can stay).
        public var isZombie: Bool { state == "Z" }

        /// `PID STATE ARGS`, as `ps -o pid,stat,args` shows it.
        public var description: String { "\(pid) \(state) \(arguments)" }
    }

    /// Every process's PID, zombies included.
    public static func pids() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
    }

    /// Every process, zombies included; one that ends while the table is read is left out.
    public static func processes() -> [Process] {
        pids().compactMap { process($0) }
    }

    /// Live (not zombie) processes whose command line contains `marker`.
    public static func live(containing marker: String) -> [Process] {
        live { $0.contains(marker) }
    }

    /// Live (not zombie) processes whose whole command line is `commandLine` (not the shells
    /// that started them, which hold it among their own arguments).
    public static func live(running commandLine: String) -> [Process] {
        live { $0 == commandLine }
    }

    /// Live processes whose command line `matches`: the command lines are read first and only
    /// the matching processes' `stat` (a zombie has no command line, so it never matches).
    private static func live(where matches: (String) -> Bool) -> [Process] {
        pids().compactMap { pid in
            guard let line = commandLine(of: pid), !line.isEmpty, matches(line),
                var found = process(pid, withArguments: false), !found.isZombie
            else { return nil }
            found.arguments = line
            return found
        }
    }

    /// Live processes with a descriptor open on the file at `path` (as `/proc/PID/fd` links show
    /// it; a file removed since shows with " (deleted)" and still counts).
    public static func holding(_ path: String) -> [Process] {
        pids().compactMap { pid in
            let folder = "/proc/\(pid)/fd"
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            let holds = descriptors.contains { fd in
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + fd) else { return false }
                return target == path || target == path + " (deleted)"
            }
            guard holds, let found = process(pid), !found.isZombie else { return nil }
            return found
        }
    }

    /// The process `pid`; nil once it is gone (a zombie is still there).
    public static func process(_ pid: Int32, withArguments: Bool = true) -> Process? {
        guard let stat = try? SystemCall.readFile("/proc/\(pid)/stat"),
            let open = stat.firstIndex(of: UInt8(ascii: "(")), let close = stat.lastIndex(of: UInt8(ascii: ")"))
        else { return nil }
        // The name may hold spaces and parentheses: the fields start after the last ')'.
        let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " ")).prefix(5).map { String(decoding: $0, as: UTF8.self) }
        guard fields.count == 5, let state = fields[0].first, let parent = Int32(fields[1]), let group = Int32(fields[2]),
            let session = Int32(fields[3])
        else { return nil }
        var arguments = withArguments ? commandLine(of: pid) ?? "" : ""
        if withArguments, arguments.isEmpty { arguments = "[" + String(decoding: stat[(open + 1)..<close], as: UTF8.self) + "]" }
        return Process(pid: pid, parent: parent, group: group, session: session, state: state, arguments: arguments)
    }

    /// `pid`'s arguments joined by spaces; empty for a kernel thread or a zombie, nil once it is gone.
    private static func commandLine(of pid: Int32) -> String? {
        guard var line = try? SystemCall.readFile("/proc/\(pid)/cmdline") else { return nil }
        while line.last == 0 { line.removeLast() }
        return String(decoding: line.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    /// The processes under `root`: its children, theirs, and so on (not `root` itself).
    public static func descendants(of root: Int32) -> [Int32] {
        var result: [Int32] = []
        var frontier = [root]
        while let next = frontier.popLast() {
            let direct = children(of: next)
            result += direct
            frontier += direct
        }
        return result
    }

    /// `pid`'s children, from each of its threads' `children` list; from every process's parent
    /// where the kernel keeps no such list (built without CONFIG_PROC_CHILDREN).
    public static func children(of pid: Int32) -> [Int32] {
        guard kernelListsChildren else {
            return pids().filter { process($0, withArguments: false)?.parent == pid }
        }
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return threads.flatMap { thread in
            let list = (try? SystemCall.readFile("/proc/\(pid)/task/\(thread)/children")) ?? []
            return list.split(separator: UInt8(ascii: " ")).compactMap { Int32(String(decoding: $0, as: UTF8.self)) }
        }
    }

    /// Whether the kernel keeps `children` lists (CONFIG_PROC_CHILDREN), looked up once: a
    /// server's start polls its descendants every 5 ms.
    private static let kernelListsChildren = SystemCall.exists("/proc/self/task/\(SystemCall.processID)/children")

    /// What each of `pid`'s open descriptors is (`pipe:[N]`, a path, ...); none once it is gone.
    public static func descriptors(of pid: Int32) -> [String] {
        let folder = "/proc/\(pid)/fd"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0)
        }
    }
}
