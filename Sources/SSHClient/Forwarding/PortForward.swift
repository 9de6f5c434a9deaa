import Foundation
import Platform
import Synchronization

/// A local port whose connections are carried to a port on the box, as `ssh -L` does: each
/// accepted connection gets its own `direct-tcpip` channel, many at once, over one connection.
///
/// ```swift
/// let forward = try connection.forwardLocal(to: 3000)          // a free local port
/// print("open http://127.0.0.1:\(forward.localPort)")
/// // … later
/// forward.close()
/// ```
///
/// The listener belongs to the forward, not to the link: with a ``ReconnectPolicy`` a dropped link
/// ends the connections it carried, and connections accepted afterwards wait for the reconnect.
public final class PortForward: Sendable {
    /// The local port, on 127.0.0.1.
    public let localPort: Int
    /// The host the box connects to (its own `127.0.0.1` by default).
    public let remoteHost: String
    /// The port the box connects to.
    public let remotePort: Int

    private let listener: Int32
    private let stopSignal: WakeSignal
    /// The accept loop's, which closes the listener as it ends: ``close()`` waits for it.
    private let acceptThread = Mutex<JoinableThread?>(nil)
    private let counters = Mutex(Counters())
    private let report: AsyncStream<Failure>.Continuation
    /// Why a connection could not be carried, one element each (the box refused the port, the
    /// link was down); ends when the forward closes.
    public let failures: AsyncStream<Failure>

    /// A local connection the forward could not carry.
    public struct Failure: Sendable, Error, CustomStringConvertible {
        /// What went wrong.
        public let error: SSHError
        /// What happened, in rws's words.
        public var description: String { error.description }
    }

    private struct Counters {
        var accepted = 0
        var closed = false
    }

    /// How many local connections were accepted so far.
    public var acceptedConnections: Int { counters.withLock { $0.accepted } }

    init(connection: SSHConnection, localPort: Int, remoteHost: String, remotePort: Int) throws(SSHError) {
        guard (0...65535).contains(localPort), (1...65535).contains(remotePort) else {
            throw .invalidArgument("ports go from 1 to 65535 (0 for a free local port): \(localPort) → \(remotePort)")
        }
        let address = SystemCall.loopback(port: localPort)
        let fd: Int32
        do {
            stopSignal = try WakeSignal()
            fd = try SystemCall.socket(for: address)
        } catch {
            throw .channelFailed(
                operation: "listening on 127.0.0.1:\(localPort)", reason: error.reason(advising: nil))
        }
        do {
            try SystemCall.setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
            try SystemCall.bind(fd, to: address)
            try SystemCall.listen(fd, backlog: 128)
            try SystemCall.setNonblocking(fd)
            self.localPort = try SystemCall.localPort(of: fd)
        } catch {
            SystemCall.close(fd)
            let reason = error.code == EADDRINUSE ? "the port is in use: choose another or 0 for a free one" : error.reason
            throw .channelFailed(operation: "listening on 127.0.0.1:\(localPort)", reason: reason)
        }
        listener = fd
        self.remoteHost = remoteHost
        self.remotePort = remotePort
        (failures, report) = AsyncStream.makeStream(of: Failure.self)
        do {
            let thread = try JoinableThread(stackSize: 256 * 1024) { [self] in acceptLoop(connection) }
            acceptThread.withLock { $0 = thread }
        } catch {
            SystemCall.close(fd)
            report.finish()
            throw .channelFailed(operation: "listening on 127.0.0.1:\(localPort)", reason: error.reason)
        }
    }

    /// Stops accepting and closes the listening socket: when it returns, the port refuses
    /// connections (a message saying so is true). The connections under way end with their
    /// channels (or the connection). Safe to call more than once, from anywhere.
    public func close() {
        let first = counters.withLock { counters in
            defer { counters.closed = true }
            return !counters.closed
        }
        if first { stopSignal.wake() }
        // The accept loop only polls and hands connections to tasks: it ends at once.
        acceptThread.withLock { $0 }?.join()
    }

    private var isClosed: Bool { counters.withLock { $0.closed } }

    /// Accepts until ``close()``, handing each connection to its own relay channel.
    private func acceptLoop(_ connection: SSHConnection) {
        SystemCall.nameCurrentThread("rws-forward")
        defer {
            SystemCall.close(listener)
            report.finish()
        }
        var outOfDescriptors = false
        while !isClosed {
            var fds = [
                pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: stopSignal.readFD, events: Int16(POLLIN), revents: 0),
            ]
            guard (try? SystemCall.poll(&fds, timeout: nil)) != nil else { continue }
            if fds[1].revents != 0 { return }
            while !isClosed {
                do {
                    guard let client = try SystemCall.accept(listener) else { break }  // none waiting
                    counters.withLock { $0.accepted += 1 }
                    carry(client, over: connection)
                } catch  where error.isOutOfDescriptors {
                    // The connection waits in the backlog; say so once, and look again in a
                    // moment rather than spin on a listener that stays readable.
                    if !outOfDescriptors {
                        outOfDescriptors = true
                        report.yield(
                            Failure(
                                error: .channelFailed(
                                    operation: "accepting a connection on 127.0.0.1:\(localPort)",
                                    reason: error.reason(advising: nil) + "; it waits until one is free")))
                    }
                    var stop = [pollfd(fd: stopSignal.readFD, events: Int16(POLLIN), revents: 0)]
                    if (try? SystemCall.poll(&stop, timeout: .milliseconds(100))) ?? 0 > 0 { return }
                    break
                } catch {
                    outOfDescriptors = false
                    break
                }
                outOfDescriptors = false
            }
        }
    }

    private func carry(_ client: Int32, over connection: SSHConnection) {
        do {
            try SystemCall.setNonblocking(client)
        } catch {
            SystemCall.close(client)
            return
        }
        let (host, port, report) = (remoteHost, remotePort, report)
        Task {
            // A link lost before the channel opened (perhaps not yet noticed when the connection
            // came) is tried again over the next link; nothing was sent yet.
            var attempt = 1
            while true {
                do {
                    return try await connection.openRelay(to: host, port: port, fd: client, dedicated: false)
                } catch SSHError.connectionLost where attempt < 3 && connection.configuration.reconnect != nil {
                    attempt += 1
                } catch {
                    SystemCall.close(client)
                    report.yield(Self.failure(error, host: host, port: port))
                    return
                }
            }
        }
    }

    /// `error` in rws's words: the server's own ("Channel open failure (connect failed)") say little.
    private static func failure(_ error: any Error, host: String, port: Int) -> Failure {
        switch error {
        case SSHError.channelFailed(_, let reason):
            return Failure(
                error: .channelFailed(
                    operation: "forwarding a connection to \(host):\(port) on the box",
                    reason: "the box refused it (\(reason)): is anything listening there?"))
        case let error as SSHError:
            return Failure(error: error)
        default:
            return Failure(error: .channelFailed(operation: "forwarding to \(host):\(port)", reason: "\(error)"))
        }
    }
}

extension SSHConnection {
    /// Listens on 127.0.0.1:`localPort` (0: a free port, see ``PortForward/localPort``) and
    /// carries each connection to `host`:`port` as seen from the box, until
    /// ``PortForward/close()`` or the connection closes.
    ///
    /// - Throws: ``SSHError/invalidArgument(_:)`` for a port out of range,
    ///   ``SSHError/channelFailed(operation:reason:)`` when the local port cannot be listened on.
    public func forwardLocal(port localPort: Int = 0, to port: Int, host: String = "127.0.0.1") throws -> PortForward {
        try PortForward(connection: self, localPort: localPort, remoteHost: host, remotePort: port)
    }
}
