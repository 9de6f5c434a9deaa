import Foundation
import Platform

/// A port the box listens on for this connection (`ssh -R`), on the I/O thread: the
/// `tcpip-forward` request, then each connection the server forwards, relayed by a
/// ``DirectTCPIPChannel`` to a new connection to the target here.
///
/// The request and the cancel are global requests: one at a time, and never beside a channel
/// open or a keepalive (``LoopContext/listenHolder``), as libssh2 1.10 keeps one reply in
/// flight per kind. Connecting to the target can take time (a host on the LAN), so it runs on its
/// own thread while the accepted channel waits here; its data waits in libssh2's queue.
final class RemoteListener {
    private enum Phase {
        case requesting
        case listening(LibSSH2Listener)
        case cancelling(LibSSH2Listener)
        case ended
    }

    /// Where forwarded connections go, and what the handle wants to know about them.
    struct Target: Sendable {
        var host: String
        var port: Int
        /// Called (on another thread) for each connection the box forwarded.
        var accepted: @Sendable () -> Void
        /// Called (on another thread) when a forwarded connection could not reach the target.
        var failed: @Sendable (SSHError) -> Void
    }

    unowned let loop: LoopContext
    private let host: String
    private let port: Int
    private let target: Target
    private var phase = Phase.requesting
    private var cancelRequested = false
    /// The port the box listens on once it agreed; the refusal otherwise.
    let bound = Promise<Int>()
    /// Settled once the listener is gone: cancelled, refused, or its connection ended.
    let ended = Promise<Void>()

    init(loop: LoopContext, host: String, port: Int, target: Target) {
        self.loop = loop
        self.host = host
        self.port = port
        self.target = target
    }

    var hasEnded: Bool {
        if case .ended = phase { return true }
        return false
    }

    /// Waiting for the box's answer to the request.
    var isWaitingOnPeer: Bool {
        if case .requesting = phase { return true }
        return false
    }

    /// Stops listening at the next pass; connections under way go on.
    func cancel() { cancelRequested = true }

    /// One step; true when anything happened.
    func advance() -> Bool {
        switch phase {
        case .requesting: return request()
        case .listening(let listener): return cancelRequested ? startCancel(listener) : acceptAll(listener)
        case .cancelling(let listener): return finishCancel(listener)
        case .ended: return false
        }
    }

    private func request() -> Bool {
        guard loop.listenHolder === self || loop.openTurnIsFree else { return false }
        loop.listenHolder = self
        switch LibSSH2Listener.listen(on: loop.transport, host: host, port: port) {
        case .wouldBlock:
            return false
        case .done(let (listener, boundPort)):
            loop.listenHolder = nil
            phase = .listening(listener)
            bound.complete(.success(boundPort))
        case .failed(let code):
            loop.listenHolder = nil
            if LibSSH2Code.isFatal(code) {
                loop.lose(loop.transport.error("asking the box to listen on \(host):\(port)"))
                return true
            }
            let reason =
                code == LibSSH2Code.requestDenied
                ? "the box refused: the port is taken there, needs root (below 1024), or its sshd forbids forwarding (AllowTcpForwarding)"
                : loop.transport.lastError.message
            end(.channelFailed(operation: "listening on \(host):\(port) on the box", reason: reason))
        }
        return true
    }

    private func acceptAll(_ listener: LibSSH2Listener) -> Bool {
        var progressed = false
        while true {
            switch listener.accept(loop.transport) {
            case .done(let channel):
                connect(channel)
                progressed = true
            case .wouldBlock:
                return progressed
            case .failed(let code):
                if LibSSH2Code.isFatal(code) { loop.lose(loop.transport.error("taking a connection forwarded by the box")) }
                return progressed
            }
        }
    }

    private func startCancel(_ listener: LibSSH2Listener) -> Bool {
        phase = .cancelling(listener)
        return finishCancel(listener)
    }

    private func finishCancel(_ listener: LibSSH2Listener) -> Bool {
        guard loop.listenHolder === self || loop.openTurnIsFree else { return false }
        loop.listenHolder = self
        if case .wouldBlock = listener.cancel() { return false }
        loop.listenHolder = nil
        end()
        return true
    }

    /// Settles both promises; `bound` only if it has not been (a refusal, or the end before an answer).
    private func end(_ refusal: SSHError = .connectionClosed) {
        phase = .ended
        bound.complete(.failure(refusal))
        ended.complete(.success(()))
    }

    /// The connection ended under the listener (the box stops listening with it).
    func connectionEnded(_ error: SSHError) {
        if loop.listenHolder === self { loop.listenHolder = nil }
        end(error)
    }

    // MARK: Forwarded connections

    /// Connects to the target on a thread of its own, then relays the channel to it.
    private func connect(_ channel: LibSSH2Channel) {
        target.accepted()
        let waiting = LoopBound(AcceptedChannel(channel), loop: loop)
        let (loop, target) = (loop.handle, target)
        let thread = Thread {
            let result = Result<Int32, SSHError> { () throws(SSHError) in
                try TCPSocket.connect(host: target.host, port: target.port, timeout: .seconds(10)).fd
            }
            let refused = loop.submit { loop in Self.relay(waiting.value.channel, to: result, target: target, on: loop) }
            if refused != nil, case .success(let fd) = result { SystemCall.close(fd) }
        }
        thread.stackSize = 256 * 1024
        thread.start()
    }

    /// Relays the channel to the connected socket; when the target could not be reached, to a
    /// socket whose other end is closed, so that the relay closes the channel as its end.
    private static func relay(_ channel: LibSSH2Channel, to result: Result<Int32, SSHError>, target: Target, on loop: LoopContext) {
        let fd: Int32
        switch result {
        case .success(let connected):
            fd = connected
        case .failure(let error):
            target.failed(error)
            guard let (end, other) = try? SystemCall.socketPair() else { return }  // no descriptors: freed with the session
            SystemCall.close(other)
            fd = end
        }
        do {
            loop.adopt(
                try DirectTCPIPChannel(
                    loop: loop, host: target.host, port: target.port, fd: fd, owner: nil, opened: Promise(), accepted: channel))
        } catch {
            // No descriptor for the relay: this connection is dropped (the channel is freed with
            // the session), the listener and the others go on.
            SystemCall.close(fd)
            target.failed(
                .channelFailed(
                    operation: "relaying a connection to \(target.host):\(target.port)",
                    reason: error.reason(advising: nil)))
        }
    }
}

/// A channel waiting, on the I/O thread, for its local connection.
private final class AcceptedChannel {
    let channel: LibSSH2Channel
    init(_ channel: LibSSH2Channel) { self.channel = channel }
}
