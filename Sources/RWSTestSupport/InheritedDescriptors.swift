import Foundation

/// Keeps the test process's descriptors out of the programs the test support starts.
///
/// `posix_spawn` passes a child every descriptor that is not close-on-exec, and Foundation's
/// `Pipe` makes such: a server started while another test's command had its pipes open kept their
/// write ends, so that command's output did not end until the server did (sshd closes what it
/// inherits; dropbear, the shells and the `rws` binary do not).
enum InheritedDescriptors {
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which its header
    /// declares only for `_GNU_SOURCE`, so Swift does not import it.
    private static let addCloseFrom: AddCloseFrom? = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: AddCloseFrom.self) }

    /// Has the child close every descriptor above stderr, after the actions added before.
    static func close(in actions: inout posix_spawn_file_actions_t) throws {
        if let addCloseFrom {
            let rc = addCloseFrom(&actions, 3)
            guard rc == 0 else {
                throw TestServerError.startFailed("posix_spawn_file_actions_addclosefrom_np: \(String(cString: strerror(rc)))")
            }
            return
        }
        // An older glibc: each descriptor open now (one closed since fails quietly in the child).
        for name in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            if let fd = Int32(name), fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        }
    }
}
