import Foundation

/// This machine's processes as `/proc` shows them: for tests that look at the process table.
public enum LocalProcessTable {
    /// Every process's PID, zombies included.
    public static func pids() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
    }

    /// What each of `pid`'s open descriptors is (`pipe:[N]`, a path, ...); none once it is gone.
    public static func descriptors(of pid: Int32) -> [String] {
        let folder = "/proc/\(pid)/fd"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0)
        }
    }
}
