import Foundation
import Platform
import Synchronization

/// Runs a nonblocking libssh2 call to completion before the I/O loop starts serving
/// (handshake and authentication), waiting on the socket in the directions libssh2 asks for.
struct SocketWaiter {
    let transport: SSHTransport
    let socket: TCPSocket
    let deadline: ContinuousClock.Instant
    let onTimeout: SSHError
    /// The caller giving up ends a wait at once (see ``EstablishmentCancellation``).
    var cancellation: EstablishmentCancellation? = nil
    /// Time a person took answering during a call (keyboard-interactive prompts): it moves the
    /// deadline on, as it is not the link's time.
    var personTime: PersonTime? = nil

    /// The same waiter with its deadline `duration` later: for time a person took, not the link.
    func movedOn(by duration: Duration) -> SocketWaiter {
        SocketWaiter(
            transport: transport, socket: socket, deadline: deadline + duration, onTimeout: onTimeout, cancellation: cancellation)
    }

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
        let remaining = deadline + (personTime?.spent ?? .zero) - ContinuousClock.now
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

/// The time a person took over questions asked in the middle of a libssh2 call, and whether one
/// went unanswered until its limit.
final class PersonTime: Sendable {
    private let state = Mutex<(spent: Duration, timedOut: Bool)>((.zero, false))

    var spent: Duration { state.withLock { $0.spent } }
    var timedOut: Bool { state.withLock { $0.timedOut } }

    func add(_ duration: Duration, timedOut: Bool) {
        state.withLock {
            $0.spent += duration
            $0.timedOut = $0.timedOut || timedOut
        }
    }
}
