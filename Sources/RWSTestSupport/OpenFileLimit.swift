import Foundation

/// Another process's limit on open files, changed while it runs (util-linux `prlimit`), as when
/// descriptors run out in a command already under way: brought below what the process holds, it
/// keeps those open and every new one it asks for fails with `EMFILE`.
public enum OpenFileLimit {
    /// The fewest a process can be held to: standard input, output and error, and nothing more.
    public static let nothingLeft = 3

    /// Sets the soft limit on open files of process `pid` to `soft`.
    public static func set(_ soft: Int, of pid: pid_t) throws {
        let ran = try Spawn.capture("/usr/bin/prlimit", ["--pid", "\(pid)", "--nofile=\(soft):"], environment: nil)
        guard ran.status == 0 else {
            throw TestServerError.commandFailed("prlimit --pid \(pid) --nofile=\(soft): failed (\(ran.status)): \(ran.stderr)")
        }
    }
}
