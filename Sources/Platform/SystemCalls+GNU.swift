#if canImport(Glibc)
import Glibc
#endif

/// glibc functions whose header declares them only under `_GNU_SOURCE`, which Swift's `Glibc`
/// module does not set: found by name in the C library this process runs with.
private enum GNUFunction {
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias Accept4 = @convention(c) (Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32) -> Int32

    /// `pipe2` (glibc 2.9 and later).
    static let pipe2: Pipe2? = lookUp("pipe2", as: Pipe2.self)
    /// `accept4` (glibc 2.10 and later).
    static let accept4: Accept4? = lookUp("accept4", as: Accept4.self)
    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34 and later).
    static let addCloseFrom: AddCloseFrom? = lookUp("posix_spawn_file_actions_addclosefrom_np", as: AddCloseFrom.self)

    private static func lookUp<Function>(_ name: String, as type: Function.Type) -> Function? {
        dlsym(dlopen(nil, RTLD_NOW), name).map { unsafeBitCast($0, to: type) }
    }
}

extension SystemCall {
    /// `pipe2(fds, flags)`; without it (a glibc older than 2.9), `pipe` and then the flags, which
    /// leaves a moment in which a process another thread starts inherits the pipe.
    static func pipe(_ fds: inout [Int32], flags: Int32) throws(SystemCallError) {
        if let pipe2 = GNUFunction.pipe2 {
            guard pipe2(&fds, flags) == 0 else { throw SystemCallError("pipe2") }
            return
        }
        guard Glibc.pipe(&fds) == 0 else { throw SystemCallError("pipe") }
        do throws(SystemCallError) {
            for fd in fds {
                if flags & O_NONBLOCK != 0 { try setNonblocking(fd) }
                if flags & O_CLOEXEC != 0, fcntl(fd, F_SETFD, FD_CLOEXEC) != 0 { throw SystemCallError("fcntl(F_SETFD)") }
            }
        } catch {
            for fd in fds { Glibc.close(fd) }
            throw error
        }
    }

    /// `accept4(fd, nil, nil, SOCK_CLOEXEC)`: the connection's descriptor, or -1 with `errno` set;
    /// without it (a glibc older than 2.10), `accept` and then the flag, which leaves the moment
    /// `pipe(_:flags:)` describes.
    static func acceptClosingOnExec(_ fd: Int32) throws(SystemCallError) -> Int32 {
        if let accept4 = GNUFunction.accept4 { return accept4(fd, nil, nil, Int32(SOCK_CLOEXEC.rawValue)) }
        let client = Glibc.accept(fd, nil, nil)
        if client >= 0, fcntl(client, F_SETFD, FD_CLOEXEC) != 0 {
            let error = SystemCallError("fcntl(F_SETFD)")
            Glibc.close(client)
            throw error
        }
        return client
    }

    /// Has a child started with `actions` close every descriptor from `lowest` up, after the
    /// actions added before. False when this glibc (older than 2.34) cannot: the caller then
    /// closes each descriptor it knows of.
    static func addCloseFrom(_ lowest: Int32, to actions: inout posix_spawn_file_actions_t) throws(SystemCallError) -> Bool {
        guard let addCloseFrom = GNUFunction.addCloseFrom else { return false }
        let code = addCloseFrom(&actions, lowest)
        guard code == 0 else { throw SystemCallError("posix_spawn_file_actions_addclosefrom_np", code: code) }
        return true
    }
}
