import Foundation
import Platform

/// Runs a nonblocking libssh2 call to completion before the I/O loop starts serving
/// (handshake and authentication), waiting on the socket in the directions libssh2 asks for.
struct SocketWaiter {
    let transport: SSHTransport
    let socket: TCPSocket
    let deadline: ContinuousClock.Instant
    let onTimeout: SSHError
    /// The caller giving up ends a wait at once (see ``EstablishmentCancellation``).
    var cancellation: EstablishmentCancellation? = nil

    /// Calls `body` until it stops returning `LibSSH2Code.wouldBlock`; returns its last result.
    func retry(_ body: () -> Int32) throws(SSHError) -> Int32 {
        while true {
            let rc = body()
            guard rc == LibSSH2Code.wouldBlock else { return rc }
            try wait()
        }
    }

    /// Calls `body` until it returns non-nil or fails with something other than EAGAIN.
    func retry<T>(_ body: () -> T?) throws(SSHError) -> T? {
        while true {
            if let value = body() { return value }
            guard transport.lastErrno == LibSSH2Code.wouldBlock else { return nil }
            try wait()
        }
    }

    /// Blocks until the socket is ready in libssh2's directions or the deadline passes.
    func wait() throws(SSHError) {
        try cancellation?.check()
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { throw onTimeout }
        let directions = transport.blockDirections
        var events: Int16 = 0
        if directions.contains(.inbound) { events |= Int16(POLLIN) }
        if directions.contains(.outbound) { events |= Int16(POLLOUT) }
        if events == 0 { events = Int16(POLLIN) }
        var pfd = [pollfd(fd: socket.fd, events: events, revents: 0)]
        if let cancellation { pfd.append(pollfd(fd: cancellation.wakeFD, events: Int16(POLLIN), revents: 0)) }
        do {
            try SystemCall.poll(&pfd, timeout: min(remaining, .seconds(1)))
        } catch {
            throw .connectionLost(reason: error.description)
        }
        try cancellation?.check()
    }
}
