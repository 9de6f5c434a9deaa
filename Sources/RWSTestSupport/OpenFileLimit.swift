import Foundation

/// Another process's limit on open files, changed while it runs (util-linux `prlimit`), as when
/// descriptors run out in a command already under way: brought below what the process holds, it
/// keeps those open and every new one it asks for fails with `EMFILE`.
public enum OpenFileLimit {
    /// The fewest a process can be held to: standard input, output and error, and nothing more.
    public static let nothingLeft = 3

    /// Brings the soft limit of `rws`'s process `pid` down to one above the descriptor it holds in
    /// reserve (`DescriptorReserve`: the first `/dev/null` above standard error), as in a process
    /// that opened files until `EMFILE`: every number it may use is taken, and of what it frees
    /// only the reserve is below the limit. Throws when no reserve is held. Returns the limit set.
    @discardableResult
    public static func useUp(ofRws pid: pid_t) throws -> Int {
        let folder = "/proc/\(pid)/fd"
        let numbers = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap { Int($0) }.sorted()
        let reserve = numbers.first {
            $0 > 2 && (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)")) == "/dev/null"
        }
        guard let reserve else { throw TestServerError.commandFailed("rws \(pid) holds no reserve descriptor: \(numbers)") }
        try set(reserve + 1, of: pid)
        return reserve + 1
    }

    /// Sets the soft limit on open files of process `pid` to `soft`.
    public static func set(_ soft: Int, of pid: pid_t) throws {
        let ran = try Spawn.capture("/usr/bin/prlimit", ["--pid", "\(pid)", "--nofile=\(soft):"], environment: nil)
        guard ran.status == 0 else {
            throw TestServerError.commandFailed("prlimit --pid \(pid) --nofile=\(soft): failed (\(ran.status)): \(ran.stderr)")
        }
    }
}
