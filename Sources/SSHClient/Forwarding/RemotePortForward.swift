import Foundation
import Synchronization

/// A port on the box whose connections are carried to a port here, as `ssh -R` does: the box's
/// sshd listens, and each connection it accepts comes over its own channel and is relayed to a
/// new connection to the target here, many at once.
///
/// ```swift
/// let forward = try await connection.forwardRemote(port: 0, to: 8080)  // a free port on the box
/// print("on the box: curl http://127.0.0.1:\(forward.remotePort)")
/// // … later
/// forward.close()
/// ```
///
/// The box stops listening when the link drops. With a ``ReconnectPolicy`` the forward asks again
/// on each new link, for the same port, and keeps asking every 2 seconds while the box refuses
/// (the sshd of a link that died unnoticed may hold the port until it gives up on it);
/// ``failures`` says so.
public final class RemotePortForward: Sendable {
    /// The port the box listens on.
    public let remotePort: Int
    /// The address the box listens on (its `127.0.0.1` by default; others need `GatewayPorts`).
    public let remoteAddress: String
    /// The host connections are carried to, from here.
    public let localHost: String
    /// The port connections are carried to.
    public let localPort: Int
    /// Connections that could not be carried (the target here refused), and a box that would
    /// not listen again after a reconnect, one element each; ends when the forward ends.
    public let failures: AsyncStream<PortForward.Failure>

    private let report: AsyncStream<PortForward.Failure>.Continuation
    private let state = Mutex(State())

    private struct State {
        var listener: LoopBound<RemoteListener>?
        var accepted = 0
        var closed = false
    }

    /// How many connections the box forwarded so far.
    public var acceptedConnections: Int { state.withLock { $0.accepted } }

    private init(remotePort: Int, remoteAddress: String, localHost: String, localPort: Int) {
        self.remotePort = remotePort
        self.remoteAddress = remoteAddress
        self.localHost = localHost
        self.localPort = localPort
        (failures, report) = AsyncStream.makeStream(of: PortForward.Failure.self)
    }

    /// Asks the box to listen and returns once it agreed.
    static func start(
        on connection: SSHConnection, address: String, port: Int, localHost: String, localPort: Int
    ) async throws -> RemotePortForward {
        guard (0...65535).contains(port), (1...65535).contains(localPort) else {
            throw SSHError.invalidArgument("ports go from 1 to 65535 (0 for a free port on the box): \(port) → \(localPort)")
        }
        let pending = Mutex<RemotePortForward?>(nil)
        let target = RemoteListener.Target(
            host: localHost, port: localPort,
            accepted: { pending.withLock { $0 }?.state.withLock { $0.accepted += 1 } },
            failed: { error in pending.withLock { $0 }?.reportTarget(error) })
        let loop = try await connection.link.usableLoop()
        let listener = try await listen(on: connection, loop: loop, address: address, port: port, target: target)
        let forward = RemotePortForward(
            remotePort: listener.bound, remoteAddress: address, localHost: localHost, localPort: localPort)
        forward.state.withLock { $0.listener = listener.handle }
        pending.withLock { $0 = forward }
        Task { await forward.keepListening(on: connection, after: listener.ended, target: target) }
        return forward
    }

    /// Stops the box listening; connections under way go on until they end. Safe to call more than once.
    public func close() {
        let listener = state.withLock { state -> LoopBound<RemoteListener>? in
            state.closed = true
            return state.listener
        }
        listener?.onLoop { $0.cancel() }
    }

    private var isClosed: Bool { state.withLock { $0.closed } }

    private typealias Listening = (handle: LoopBound<RemoteListener>, bound: Int, ended: Promise<Void>)

    /// Asks the box to listen and, where its sshd may agree without holding the port
    /// (``RemoteListenerCheck``), checks that it does: else the listener is cancelled and, for a
    /// port the box chose, asked for again (three times at most). A check that cannot run leaves
    /// the listener as the box gave it. `again`: a listen after a reconnect, which
    /// ``keepListening(on:after:target:)`` asks for again by itself.
    private static func listen(
        on connection: SSHConnection, loop: ConnectionLoop, address: String, port: Int, target: RemoteListener.Target,
        again: Bool = false
    ) async throws -> Listening {
        var listener = try await requestListener(on: loop, address: address, port: port, target: target)
        guard RemoteListenerCheck.applies(toServer: connection.serverIdentification) else { return listener }
        for attempt in 1...3 {
            guard let checked = try? await RemoteListenerCheck.script.result(on: connection, timeout: .seconds(30), idempotent: true),
                checked.status.isSuccess,
                RemoteListenerCheck.holder(in: checked.stdoutText, address: address, port: listener.bound) == .another
            else { return listener }
            listener.handle.onLoop { $0.cancel() }
            guard port == 0, attempt < 3 else {
                throw SSHError.channelFailed(
                    operation: "listening on \(address):\(listener.bound) on the box",
                    reason: "the port is taken there: the box's sshd agreed but does not hold it (it listened on its ::1 alone, "
                        + "another program holds it or did a moment ago); "
                        + (again ? "the forward asks for it again every 2 seconds" : "choose another port, or 0 for a free one"))
            }
            listener = try await requestListener(on: loop, address: address, port: port, target: target)
        }
        return listener
    }

    /// Asks the box to listen, unchecked: returns once it agreed, with the port it listens on.
    private static func requestListener(
        on loop: ConnectionLoop, address: String, port: Int, target: RemoteListener.Target
    ) async throws -> Listening {
        let made = Mutex<(LoopBound<RemoteListener>, Promise<Int>, Promise<Void>)?>(nil)
        let ready = Promise<Void>()
        if let error = loop.submit({ loop in
            let listener = RemoteListener(loop: loop, host: address, port: port, target: target)
            made.withLock { $0 = (LoopBound(listener, loop: loop), listener.bound, listener.ended) }
            loop.add(listener)
            ready.complete(.success(()))
        }) {
            throw error
        }
        try await ready.value()
        let (handle, bound, ended) = made.withLock { $0! }
        return (handle, try await bound.value(), ended)
    }

    /// After each lost link, asks the new one to listen on the same port, until closed or the
    /// connection ends for good.
    private func keepListening(on connection: SSHConnection, after ended: Promise<Void>, target: RemoteListener.Target) async {
        defer { report.finish() }
        var ended = ended
        var refusalSaid = false
        while true {
            try? await ended.value()
            if isClosed || !connection.link.reconnects { return }
            guard let loop = try? await connection.link.usableLoop(), !isClosed else { return }
            do {
                let listener = try await Self.listen(
                    on: connection, loop: loop, address: remoteAddress, port: remotePort, target: target, again: true)
                let stillOpen = state.withLock { state -> Bool in
                    state.listener = listener.handle
                    return !state.closed
                }
                if !stillOpen { listener.handle.onLoop { $0.cancel() } }
                ended = listener.ended
                refusalSaid = false
            } catch let error as SSHError {
                if !refusalSaid, case .channelFailed = error {
                    refusalSaid = true
                    report.yield(PortForward.Failure(error: error))
                }
                try? await Task.sleep(for: .seconds(2))
                ended = Promise()
                ended.complete(.success(()))
            } catch {
                return
            }
        }
    }

    /// A connection the box forwarded that the target here did not take.
    private func reportTarget(_ error: SSHError) {
        let reason: String
        switch error {
        case .connectionRefused(_, _, let why): reason = why
        default: reason = error.description
        }
        report.yield(
            PortForward.Failure(
                error: .channelFailed(
                    operation: "carrying a connection from port \(remotePort) on the box to \(localHost):\(localPort) here",
                    reason: "\(reason): is anything listening here?")))
    }
}

extension SSHConnection {
    /// Asks the box to listen on `address`:`port` (0: a free port, see
    /// ``RemotePortForward/remotePort``) and carries each connection made to it to
    /// `host`:`localPort` as seen from here, until ``RemotePortForward/close()`` or the
    /// connection closes.
    ///
    /// - Throws: ``SSHError/invalidArgument(_:)`` for a port out of range,
    ///   ``SSHError/channelFailed(operation:reason:)`` when the box refuses to listen (the port
    ///   is taken there, is below 1024 for a user other than root, or its sshd does not allow
    ///   forwarding).
    public func forwardRemote(
        port: Int = 0, address: String = "127.0.0.1", to localPort: Int, host: String = "127.0.0.1"
    ) async throws -> RemotePortForward {
        try await RemotePortForward.start(on: self, address: address, port: port, localHost: host, localPort: localPort)
    }
}
