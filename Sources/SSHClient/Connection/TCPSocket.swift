import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connected, nonblocking TCP socket with the options an SSH transport wants, or the local
/// end of a jump host's relay (see ``JumpTransport``).
struct TCPSocket {
    let fd: Int32
    /// The jump host connection this socket is relayed through, closed with the socket.
    var jumpConnection: SSHConnection?

    /// Resolves `host`, connects to the first address that answers within `timeout`.
    static func connect(host: String, port: Int, timeout: Duration) throws(SSHError) -> TCPSocket {
        guard (1...65535).contains(port) else {
            throw .invalidArgument("port \(port) is out of range: use 1 to 65535")
        }
        let deadline = ContinuousClock.now + timeout
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .hostNotFound(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }

        var lastError = "no address"
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            cursor = info.pointee.ai_next
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw .connectTimedOut(host: host, port: port, after: timeout) }
            switch attempt(info.pointee, within: remaining) {
            case .success(let socket): return socket
            case .failure(.timedOut): throw .connectTimedOut(host: host, port: port, after: timeout)
            case .failure(.failed(let reason)): lastError = reason
            }
        }
        throw .connectionRefused(host: host, port: port, reason: lastError)
    }

    private enum AttemptError: Error { case timedOut, failed(String) }

    private static func attempt(_ info: addrinfo, within timeout: Duration) -> Result<TCPSocket, AttemptError> {
        let fd = socket(info.ai_family, info.ai_socktype, info.ai_protocol)
        guard fd >= 0 else { return .failure(.failed(errnoText())) }
        let socket = TCPSocket(fd: fd)
        socket.setNonblocking()
        if Foundation.connect(fd, info.ai_addr, info.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else {
                let reason = errnoText()
                close(fd)
                return .failure(.failed(reason))
            }
            var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&pfd, 1, Int32(clamping: timeout.milliseconds))
            if ready == 0 {
                close(fd)
                return .failure(.timedOut)
            }
            var soError: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &length)
            if ready < 0 || soError != 0 {
                let reason = String(cString: strerror(soError != 0 ? soError : errno))
                close(fd)
                return .failure(.failed(reason))
            }
        }
        socket.setTransportOptions()
        return .success(socket)
    }

    private func setNonblocking() {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    /// TCP_NODELAY: without it Nagle plus delayed ACKs add ~40 ms to every small round trip.
    private func setTransportOptions() {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, socklen_t(MemoryLayout<Int32>.size))
        #if os(macOS) || os(iOS)
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    #if os(Linux)
    /// Unacknowledged data older than this fails the socket, so a vanished peer is noticed while sending.
    func setUserTimeout(_ timeout: Duration) {
        var milliseconds = UInt32(clamping: timeout.milliseconds)
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_USER_TIMEOUT, &milliseconds, socklen_t(MemoryLayout<UInt32>.size))
    }
    #else
    func setUserTimeout(_ timeout: Duration) {}
    #endif

    /// Whether the peer has closed the connection (or the socket failed), without consuming bytes.
    /// How many received bytes wait unread in the kernel's buffer (`FIONREAD`); 0 when unknown.
    var pendingBytes: Int {
        var count: Int32 = 0
        return ioctl(fd, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
    }

    var isClosedByPeer: Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if count == 0 { return true }
        return count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR
    }

    /// Stops traffic in both directions so that nothing can block on the socket any more.
    func shutdownBoth() {
        _ = shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Closes the descriptor; a jump host connection behind it is closed too, and waited for,
    /// so that no jump connection's thread is still inside libssh2 once the target is closed.
    func closeDescriptor() {
        _ = close(fd)
        if let jumpConnection { JumpTransport.closeAndWait(jumpConnection) }
    }
}

/// The text of the current `errno`.
func errnoText() -> String {
    String(cString: strerror(errno))
}

extension Duration {
    /// Whole milliseconds, rounded up so that a short wait never becomes a busy loop.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    }
}
