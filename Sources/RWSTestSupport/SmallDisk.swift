import Foundation

/// A small tmpfs (1 MB unless told) mounted for a test: a full disk, on the box and here alike,
/// since the box is this machine. Needs root with CAP_SYS_ADMIN, as in the test container; the
/// dropbear test server runs in a mount namespace of its own, where it is not mounted.
package final class SmallDisk {
    package let path = FileManager.default.temporaryDirectory.appendingPathComponent("rws-full-\(UUID().uuidString.prefix(8))").path

    package init(size: String = "1m") throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        do {
            try Shell.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path])
        } catch {
            throw ScriptCase.Failure(
                "cannot mount a \(size) tmpfs at \(path) (\(error)): these tests need root with CAP_SYS_ADMIN, as in the test container")
        }
    }

    /// Fills what is left of the disk with a file named `name`.
    package func fill(_ name: String = "filler") {
        _ = try? Shell.run("/bin/sh", ["-c", "cat /dev/zero > '\(path)/\(name)' 2>/dev/null"], allowFailure: true)
    }

    deinit {
        _ = try? Shell.run("/bin/umount", [path], allowFailure: true)
        try? FileManager.default.removeItem(atPath: path)
    }
}
