// The one place rws touches the C library: every system call the library, the CLI and the test
// support make goes through a wrapper here that checks its return code and carries `errno`.
#if canImport(Glibc)
import Glibc
#else
#error("rws builds on Linux (glibc) only: it is built and tested with Debian's libssh2 1.10 and uses Linux socket options")
#endif

/// A failed system call: which call, and the `errno` (or, for `getaddrinfo`, the `EAI_` code) it left.
public struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call that failed, e.g. `"poll"`.
    public let call: String
    /// `errno` after the call (an `EAI_` code for `getaddrinfo`).
    public let code: Int32
    /// The C library's text for ``code``.
    public let reason: String

    /// The failure of `call` described by the current `errno`. When no descriptor is left, the
    /// ``DescriptorReserve`` is given up, so that libdispatch can still open the one it needs.
    public init(_ call: String, code: Int32 = errno) {
        if code == EMFILE || code == ENFILE { DescriptorReserve.release() }
        self.init(call, code: code, reason: String(cString: strerror(code)))
    }

    init(_ call: String, code: Int32, reason: String) {
        self.call = call
        self.code = code
        self.reason = reason
    }

    /// `"call: reason"`.
    public var description: String { "\(call): \(reason)" }

    /// Whether the call would have blocked on a nonblocking descriptor.
    public var wouldBlock: Bool { code == EAGAIN || code == EWOULDBLOCK }

    /// Whether the process (`EMFILE`) or the system (`ENFILE`) has no file descriptor left.
    public var isOutOfDescriptors: Bool { code == EMFILE || code == ENFILE }

    /// The reason, then what to do: when the descriptors ran out, that none is left and how to
    /// free or raise them (the file or address is not to blame then); else `; ` and `advice`, if any.
    public func reason(advising advice: String?) -> String {
        if isOutOfDescriptors { return reason + " (no file descriptor is left: close some connections, or raise the limit, `ulimit -n`)" }
        return advice.map { "\(reason); \($0)" } ?? reason
    }
}

/// Thin wrappers of the system calls rws makes, each checking its return code. Descriptors stay
/// plain `Int32`s: they cross into libssh2, which takes them as such.
public enum SystemCall {
    // MARK: Descriptors

    /// A pipe whose two ends are nonblocking and close-on-exec from the start: a process another
    /// thread starts meanwhile inherits neither.
    public static func pipe() throws(SystemCallError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        try pipe(&fds, flags: O_NONBLOCK | O_CLOEXEC)
        DescriptorReserve.hold()  // every connection makes one: descriptors came back, take it again
        return (fds[0], fds[1])
    }

    /// A connected UNIX stream socket pair, both ends nonblocking and close-on-exec from the start.
    public static func socketPair() throws(SystemCallError) -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &fds) == 0 else { throw SystemCallError("socketpair") }
        return (fds[0], fds[1])
    }

    /// Makes `fd` nonblocking.
    public static func setNonblocking(_ fd: Int32) throws(SystemCallError) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0 else { throw SystemCallError("fcntl(F_GETFL)") }
        guard fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { throw SystemCallError("fcntl(F_SETFL)") }
    }

    /// Makes `fd` blocking again: the end of a ``socketPair()`` handed to a child process, whose
    /// programs expect a blocking stdin.
    public static func setBlocking(_ fd: Int32) throws(SystemCallError) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0 else { throw SystemCallError("fcntl(F_GETFL)") }
        guard fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else { throw SystemCallError("fcntl(F_SETFL)") }
    }

    /// Closes `fd`. Linux releases the descriptor even when `close` reports EINTR or EIO, so there
    /// is nothing to retry; closing a descriptor that is not open is a bug, caught in debug builds.
    public static func close(_ fd: Int32) {
        if Glibc.close(fd) != 0 {
            let code = errno
            assert(code != EBADF, "close(\(fd)): the descriptor is not open")
        }
    }

    /// Reads what is available into `buffer`: the count (0 at end of file), or nil when nothing is
    /// (a nonblocking descriptor). Interrupted reads are retried.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int? {
        try transfer("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// Writes from `buffer`: the count written, or nil when the descriptor is full. Interrupted writes are retried.
    public static func write(_ fd: Int32, from buffer: UnsafeRawBufferPointer) throws(SystemCallError) -> Int? {
        try transfer("write") { Glibc.write(fd, buffer.baseAddress, buffer.count) }
    }

    /// Reads and drops everything a nonblocking descriptor holds now (a wake-up pipe after `poll`).
    public static func drain(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64)
        while let count = try? buffer.withUnsafeMutableBytes({ bytes throws(SystemCallError) in try read(fd, into: bytes) }), count > 0 {}
    }

    /// Writes all of `bytes` to a blocking descriptor, retrying partial writes.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            let result = bytes[offset...].withUnsafeBytes { buffer in Result { () throws(SystemCallError) in try write(fd, from: buffer) } }
            guard let written = try result.get(), written > 0 else { throw SystemCallError("write", code: EAGAIN) }
            offset += written
        }
    }

    /// Receives from a socket like ``read(_:into:)``, with `recv` flags.
    public static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, flags: Int32 = 0) throws(SystemCallError) -> Int? {
        try transfer("recv") { recv(fd, buffer.baseAddress, buffer.count, flags) }
    }

    /// Sends on a socket like ``write(_:from:)``; a closed peer is EPIPE, never SIGPIPE.
    public static func send(_ fd: Int32, from buffer: UnsafeRawBufferPointer) throws(SystemCallError) -> Int? {
        try transfer("send") { Glibc.send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) }
    }

    private static func transfer(_ call: String, _ body: () -> Int) throws(SystemCallError) -> Int? {
        while true {
            let count = body()
            if count >= 0 { return count }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return nil }
            throw SystemCallError(call, code: code)
        }
    }

    /// Waits for readiness on `fds` (`revents` filled in) up to `timeout` (nil: forever); returns
    /// how many are ready, 0 when the time ran out or a signal interrupted the wait.
    @discardableResult
    public static func poll(_ fds: inout [pollfd], timeout: Duration?) throws(SystemCallError) -> Int {
        let milliseconds = timeout.map { Int32(clamping: $0.milliseconds) } ?? -1
        let count = Glibc.poll(&fds, nfds_t(fds.count), milliseconds)
        if count >= 0 { return Int(count) }
        if errno == EINTR { return 0 }
        throw SystemCallError("poll")
    }

    // MARK: Sockets

    /// One address `getaddrinfo` gave for a host, copied out of its list.
    public struct SocketAddress: Sendable {
        /// `AF_INET` or `AF_INET6`.
        public let family: Int32
        /// The socket type (`SOCK_STREAM`).
        public let type: Int32
        /// The protocol number.
        public let protocolNumber: Int32
        fileprivate let storage: sockaddr_storage
        fileprivate let length: socklen_t
    }

    /// The stream addresses of `host` and `port`, in the resolver's order. A failure's ``SystemCallError/code`` is an `EAI_` code.
    public static func resolve(host: String, port: Int) throws(SystemCallError) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else { throw SystemCallError("getaddrinfo", code: status, reason: String(cString: gai_strerror(status))) }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var cursor = list
        while let info = cursor?.pointee {
            cursor = info.ai_next
            guard let address = info.ai_addr else { continue }
            var storage = sockaddr_storage()
            let bytes = UnsafeRawBufferPointer(start: address, count: Int(info.ai_addrlen))
            withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) }
            addresses.append(
                SocketAddress(
                    family: info.ai_family, type: info.ai_socktype, protocolNumber: info.ai_protocol,
                    storage: storage, length: info.ai_addrlen))
        }
        return addresses
    }

    /// The IPv4 loopback address 127.0.0.1 at `port`.
    public static func loopback(port: Int) -> SocketAddress {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in withUnsafeBytes(of: &address) { target.copyMemory(from: $0) } }
        return SocketAddress(
            family: AF_INET, type: Int32(SOCK_STREAM.rawValue), protocolNumber: 0,
            storage: storage, length: socklen_t(MemoryLayout<sockaddr_in>.size))
    }

    /// The text form of an IPv4 (4 bytes) or IPv6 (16 bytes) address in network order
    /// (`inet_ntop`: `127.0.0.1`, `::1`); nil for any other length.
    public static func addressText(_ bytes: [UInt8]) -> String? {
        let family: Int32
        switch bytes.count {
        case 4: family = AF_INET
        case 16: family = AF_INET6
        default: return nil
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let converted = bytes.withUnsafeBytes { address in inet_ntop(family, address.baseAddress, &text, socklen_t(text.count)) }
        guard converted != nil else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A new socket for `address`, close-on-exec.
    public static func socket(for address: SocketAddress) throws(SystemCallError) -> Int32 {
        let fd = Glibc.socket(address.family, address.type | Int32(SOCK_CLOEXEC.rawValue), address.protocolNumber)
        guard fd >= 0 else { throw SystemCallError("socket") }
        DescriptorReserve.hold()
        return fd
    }

    /// Connects `fd` to `address`: true when connected, false when a nonblocking connect is under
    /// way (wait for writability, then read ``socketError(_:)``).
    public static func connect(_ fd: Int32, to address: SocketAddress) throws(SystemCallError) -> Bool {
        var storage = address.storage
        let rc = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, address.length) }
        }
        if rc == 0 { return true }
        if errno == EINPROGRESS { return false }
        throw SystemCallError("connect")
    }

    /// Binds `fd` to `address`.
    public static func bind(_ fd: Int32, to address: SocketAddress) throws(SystemCallError) {
        var storage = address.storage
        let rc = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, address.length) }
        }
        guard rc == 0 else { throw SystemCallError("bind") }
    }

    /// Lets a bound socket accept connections.
    public static func listen(_ fd: Int32, backlog: Int32 = 64) throws(SystemCallError) {
        guard Glibc.listen(fd, backlog) == 0 else { throw SystemCallError("listen") }
    }

    /// The next connection waiting on a listening socket (close-on-exec), or nil when none waits (nonblocking).
    public static func accept(_ fd: Int32) throws(SystemCallError) -> Int32? {
        while true {
            let client = try acceptClosingOnExec(fd)
            if client >= 0 { return client }
            let code = errno
            if code == EINTR || code == ECONNABORTED { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return nil }
            throw SystemCallError("accept", code: code)
        }
    }

    /// Makes the next ``close(_:)`` of a socket send a reset (SO_LINGER with a zero timeout).
    public static func setResetOnClose(_ fd: Int32) throws(SystemCallError) {
        var value = linger(l_onoff: 1, l_linger: 0)
        guard setsockopt(fd, SOL_SOCKET, SO_LINGER, &value, socklen_t(MemoryLayout<linger>.size)) == 0 else {
            throw SystemCallError("setsockopt(SO_LINGER)")
        }
    }

    /// The port a bound IPv4 or IPv6 socket has.
    public static func localPort(of fd: Int32) throws(SystemCallError) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard rc == 0 else { throw SystemCallError("getsockname") }
        // sin_port and sin6_port sit at the same offset, right after the family.
        return withUnsafeBytes(of: &storage) { Int(UInt16(bigEndian: $0.load(fromByteOffset: 2, as: UInt16.self))) }
    }

    /// Sets an integer socket option (`setsockopt`).
    public static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) throws(SystemCallError) {
        var value = value
        guard setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw SystemCallError("setsockopt(\(level), \(name))")
        }
    }

    /// The pending error of a socket (`SO_ERROR`), 0 when none; reading it clears it.
    public static func socketError(_ fd: Int32) throws(SystemCallError) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &value, &length) == 0 else { throw SystemCallError("getsockopt(SO_ERROR)") }
        return value
    }

    /// How many received bytes wait unread in the kernel's buffer (`FIONREAD`).
    public static func pendingBytes(_ fd: Int32) throws(SystemCallError) -> Int {
        var count: Int32 = 0
        guard ioctl(fd, UInt(FIONREAD), &count) == 0 else { throw SystemCallError("ioctl(FIONREAD)") }
        return Int(count)
    }

    /// Shuts down one or both directions of a socket (`SHUT_RD`, `SHUT_WR`, `SHUT_RDWR`). A socket
    /// the peer already disconnected (ENOTCONN) counts as shut down.
    public static func shutdown(_ fd: Int32, _ how: Int32) throws(SystemCallError) {
        guard Glibc.shutdown(fd, how) == 0 || errno == ENOTCONN else { throw SystemCallError("shutdown") }
    }

    // MARK: Processes and threads

    /// This process's ID.
    public static var processID: pid_t { getpid() }

    /// Whether the process runs as root.
    public static var isRoot: Bool { getuid() == 0 }

    /// Sends `signal` to `pid`; a process that is already gone (ESRCH) is not an error.
    public static func kill(_ pid: pid_t, _ signal: Int32) throws(SystemCallError) {
        guard Glibc.kill(pid, signal) == 0 || errno == ESRCH else { throw SystemCallError("kill") }
    }

    /// Names the calling thread, as `ps -L`, `top -H` and /proc/<pid>/task/*/comm show it (15 bytes
    /// at most); best effort, the name only helps diagnosis.
    public static func nameCurrentThread(_ name: String) {
        // pthread_setname_np needs _GNU_SOURCE, which Glibc's module does not define; this is what it does.
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = try? writeAll(fd, Array(name.utf8.prefix(15)))
    }

    /// The login name of the user running the process, from the passwd database.
    public static var userName: String? {
        getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) }
    }

    /// The home directory in the passwd database of the user running the process.
    public static var passwdHome: String? {
        getpwuid(getuid()).map { String(cString: $0.pointee.pw_dir) }
    }

    /// The user ID running the process.
    public static var userID: uid_t { getuid() }

    /// The local host name.
    public static func hostName() throws(SystemCallError) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { throw SystemCallError("gethostname") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The local time now as ISO 8601 with the zone's offset (`2026-11-27T04:35:12+0000`), as
    /// swift-log's `StreamLogHandler` stamps its lines; nil when the time cannot be broken down.
    public static func localTimestamp() -> String? {
        var now = time(nil)
        var parts = tm()
        guard localtime_r(&now, &parts) != nil else { return nil }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The paths matching a shell wildcard pattern, sorted; none when nothing matches. A failure's code is a `GLOB_` code.
    public static func glob(_ pattern: String) throws(SystemCallError) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        let status = Glibc.glob(pattern, 0, nil, &result)
        if status == GLOB_NOMATCH { return [] }
        guard status == 0 else { throw SystemCallError("glob", code: status, reason: "glob error \(status)") }
        return (0..<Int(result.gl_pathc)).compactMap { result.gl_pathv[$0].map { String(cString: $0) } }
    }

    // MARK: Terminals

    /// Whether `fd` is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) != 0 }

    /// The window size of the terminal `fd` in cells; nil when it cannot be read or is zero.
    public static func windowSize(_ fd: Int32) -> (columns: Int, rows: Int)? {
        var window = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return nil }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// The terminal settings of `fd`.
    public static func terminalSettings(_ fd: Int32) throws(SystemCallError) -> termios {
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { throw SystemCallError("tcgetattr") }
        return settings
    }

    /// Drops what was typed on the terminal `fd` and not read yet (`tcflush(TCIFLUSH)`), so that
    /// keys typed ahead cannot answer a question asked after them.
    public static func discardPendingInput(_ fd: Int32) {
        _ = tcflush(fd, TCIFLUSH)
    }

    /// Applies terminal settings to `fd`, after the output drains (`TCSADRAIN`).
    public static func setTerminalSettings(_ fd: Int32, _ settings: termios) throws(SystemCallError) {
        var settings = settings
        guard tcsetattr(fd, TCSADRAIN, &settings) == 0 else { throw SystemCallError("tcsetattr") }
    }

    /// `settings` switched to raw mode (no echo, no line editing, no signals: `cfmakeraw`).
    public static func rawMode(of settings: termios) -> termios {
        var raw = settings
        cfmakeraw(&raw)
        return raw
    }

    /// Installs `handler` for each of `signals` (`sigaction`, no flags).
    public static func handle(_ signals: [Int32], with handler: @convention(c) (Int32) -> Void) throws(SystemCallError) {
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = handler
            guard sigaction(number, &action, nil) == 0 else { throw SystemCallError("sigaction(\(number))") }
        }
    }

    /// Ignores `signalNumber` (a dispatch signal source still sees it).
    public static func ignore(_ signalNumber: Int32) {
        _ = signal(signalNumber, SIG_IGN)
    }

    /// Puts back the default action of each of `signals`.
    public static func restoreDefaultAction(_ signals: [Int32]) {
        for number in signals { _ = signal(number, SIG_DFL) }
    }

    /// For a signal handler, where only async-signal-safe calls are allowed: applies `settings`
    /// to `fd` at once, then raises `signalNumber` again with its default action.
    public static func restoreTerminalAndReraise(_ signalNumber: Int32, fd: Int32, settings: UnsafePointer<termios>) {
        if fd >= 0 { _ = tcsetattr(fd, TCSANOW, settings) }
        _ = signal(signalNumber, SIG_DFL)
        _ = raise(signalNumber)
    }
}

extension Duration {
    /// Whole milliseconds, rounded up so that a short wait never becomes a busy loop.
    public var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    }
}
