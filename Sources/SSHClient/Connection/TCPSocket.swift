import Foundation
import Platform

/// A connected, nonblocking TCP socket with the options an SSH transport wants, or the local
/// end of a jump host's relay (see ``JumpTransport``).
struct TCPSocket {
    let fd: Int32
    /// The jump host connection this socket is relayed through, closed with the socket.
    var jumpConnection: SSHConnection?

    /// Resolves `host`, connects to the first address that answers within `timeout`.
    static func connect(
        host: String, port: Int, timeout: Duration, cancellation: EstablishmentCancellation? = nil
    ) throws(SSHError) -> TCPSocket {
        guard (1...65535).contains(port) else {
            throw .invalidArgument("port \(port) is out of range: use 1 to 65535")
        }
        let deadline = ContinuousClock.now + timeout
        let addresses: [SystemCall.SocketAddress]
        do {
            addresses = try SystemCall.resolve(host: host, port: port)
        } catch {
            throw .hostNotFound(host: host, reason: error.reason)
        }
        var lastError = "no address"
        for address in addresses {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw .connectTimedOut(host: host, port: port, after: timeout) }
            switch attempt(address, within: remaining, cancellation: cancellation) {
            case .success(let socket): return socket
            case .failure(.cancelled): throw EstablishmentCancellation.error
            case .failure(.timedOut): throw .connectTimedOut(host: host, port: port, after: timeout)
            case .failure(.failed(let reason)): lastError = reason
            }
        }
        throw .connectionRefused(host: host, port: port, reason: lastError)
    }

    private enum AttemptError: Error { case timedOut, cancelled, failed(String) }

    private static func attempt(
        _ address: SystemCall.SocketAddress, within timeout: Duration, cancellation: EstablishmentCancellation?
    ) -> Result<TCPSocket, AttemptError> {
        let fd: Int32
        do {
            fd = try SystemCall.socket(for: address)
        } catch {
            return .failure(.failed(error.reason))
        }
        do throws(SystemCallError) {
            try SystemCall.setNonblocking(fd)
            if try !SystemCall.connect(fd, to: address) {
                let deadline = ContinuousClock.now + timeout
                var pfd = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
                if let cancellation { pfd.append(pollfd(fd: cancellation.wakeFD, events: Int16(POLLIN), revents: 0)) }
                while try SystemCall.poll(&pfd, timeout: deadline - .now) == 0 || pfd[0].revents == 0 {
                    if cancellation?.isCancelled == true {
                        SystemCall.close(fd)
                        return .failure(.cancelled)
                    }
                    guard ContinuousClock.now < deadline else {
                        SystemCall.close(fd)
                        return .failure(.timedOut)
                    }
                }
                let pending = try SystemCall.socketError(fd)
                if pending != 0 { throw SystemCallError("connect", code: pending) }
            }
            let socket = TCPSocket(fd: fd)
            try socket.setTransportOptions()
            return .success(socket)
        } catch {
            SystemCall.close(fd)
            return .failure(.failed(error.reason))
        }
    }

    /// TCP_NODELAY: without it Nagle plus delayed ACKs add ~40 ms to every small round trip.
    private func setTransportOptions() throws(SystemCallError) {
        try SystemCall.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        try SystemCall.setOption(fd, SOL_SOCKET, SO_KEEPALIVE, 1)
    }

    /// Unacknowledged data older than this fails the socket, so a vanished peer is noticed while sending.
    /// A jump relay's end is a UNIX socket: the first hop's TCP socket has its own timeout.
    func setUserTimeout(_ timeout: Duration) throws(SSHError) {
        guard jumpConnection == nil else { return }
        do {
            try SystemCall.setOption(fd, Int32(IPPROTO_TCP), TCP_USER_TIMEOUT, Int32(clamping: timeout.milliseconds))
        } catch {
            throw .libssh2(operation: error.call, code: -1, message: error.reason)
        }
    }

    /// How many received bytes wait unread in the kernel's buffer (`FIONREAD`); 0 when unknown.
    var pendingBytes: Int {
        (try? SystemCall.pendingBytes(fd)) ?? 0
    }

    /// Whether the peer has closed the connection (or the socket failed), without consuming bytes.
    var isClosedByPeer: Bool {
        var byte: UInt8 = 0
        do {
            let count = try withUnsafeMutableBytes(of: &byte) { buffer throws(SystemCallError) in
                try SystemCall.receive(fd, into: buffer, flags: Int32(MSG_PEEK | MSG_DONTWAIT))
            }
            return count == 0
        } catch {
            return true
        }
    }

    /// Stops traffic in both directions so that nothing can block on the socket any more.
    func shutdownBoth() {
        // Teardown goes on whatever this says: the descriptor is closed next.
        _ = try? SystemCall.shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Closes the descriptor; a jump host connection behind it is closed too, and waited for,
    /// so that no jump connection's thread is still inside libssh2 once the target is closed.
    func closeDescriptor() {
        SystemCall.close(fd)
        if let jumpConnection { JumpTransport.closeAndWait(jumpConnection) }
    }
}
