import Foundation
import Platform

/// A `direct-tcpip` channel relayed to a local socket: one end of a socket pair whose other end
/// is the next connection's socket (a jump host), or a connection accepted by a ``PortForward``;
/// or a `forwarded-tcpip` channel the server opened for a ``RemotePortForward``, relayed to a
/// local connection made for it.
///
/// The bytes go through unchanged: libssh2 on the next connection sees a plain socket. The
/// channel lives as long as that socket: when the local end closes, the channel is closed (and
/// so is a jump connection, dedicated to its relay); when the connection or the channel dies,
/// the local socket is closed and its peer sees the server hang up. Confined to the
/// connection's I/O thread, like every operation.
final class DirectTCPIPChannel: ChannelOperation {
    let lifecycle: ChannelLifecycle
    private let host: String
    private let port: Int
    private let fd: Int32
    private let watcher: RelayWatcher
    private let opened: Promise<Void>
    /// The channel the server opened (`forwarded-tcpip`), when this relay does not open its own.
    private let accepted: LibSSH2Channel?
    /// The jump connection this channel belongs to, kept alive while the relay runs; nil when
    /// the connection is not dedicated to it.
    private var owner: SSHConnection?
    private var announced = false
    /// Who holds the local socket: this relay until it closes it, or its caller once given back.
    private enum SocketHolder {
        case relay
        case closed
        case caller
    }
    private var socketHolder = SocketHolder.relay
    /// Bytes from the channel not yet written to the socket, and from the socket not yet sent.
    private var toSocket: [UInt8] = []
    private var toChannel: [UInt8] = []
    private var readBuffer = [UInt8](repeating: 0, count: DirectTCPIPChannel.chunk)
    private var socketEnded = false
    private var channelEnded = false
    /// A forwarded connection closes one direction at a time (an HTTP client's shutdown after its
    /// request): the socket's end goes on as the channel's EOF and the reverse, and the relay
    /// ends when both are done or the socket breaks. A jump relay ends with either side.
    private let halfCloses: Bool
    private var socketBroken = false
    private var eofSent = false
    private var socketShutDown = false
    private static let chunk = 64 * 1024

    /// - Throws: when no descriptor is left for the relay's watcher; `fd` is then still the caller's.
    init(
        loop: LoopContext, host: String, port: Int, fd: Int32, owner: SSHConnection?, opened: Promise<Void>,
        accepted: LibSSH2Channel? = nil
    ) throws(SystemCallError) {
        self.host = host
        self.port = port
        self.fd = fd
        self.owner = owner
        halfCloses = owner == nil
        self.opened = opened
        self.accepted = accepted
        watcher = try RelayWatcher(fd: fd) { [handle = loop.handle] in handle.wake() }
        lifecycle = ChannelLifecycle(loop: loop, setupRequests: [])
    }

    func attemptOpen() -> LibSSH2Outcome<LibSSH2Channel> {
        if let accepted { return .done(accepted) }
        return LibSSH2Channel.openDirectTCPIP(on: loop.transport, host: host, port: port)
    }

    /// A refused direct-tcpip means the target cannot be reached from the server, not a full server.
    func openWasRefused(_ code: Int32) -> Bool { false }

    func pump(_ channel: LibSSH2Channel) -> Bool {
        var progressed = false
        if !announced {
            announced = true
            opened.complete(.success(()))
            progressed = true
        }
        var events: Int16 = 0
        if channelToSocket(channel, &progressed) { events |= Int16(POLLOUT) }
        if socketToChannel(channel, &progressed) { events |= Int16(POLLIN) }
        if halfCloses { return pumpHalfClosing(channel, events: events, progressed: progressed) }
        if socketEnded && toChannel.isEmpty || channelEnded && toSocket.isEmpty {
            if channelEnded { _ = try? SystemCall.shutdown(fd, Int32(SHUT_WR)) }  // a failure: the peer is gone already
            outputEnded()
            if socketEnded { abandon() }
            finish()
            return true
        }
        watcher.arm(events)
        return progressed
    }

    /// Passes each direction's end on, and ends the relay once both ended or the socket broke.
    private func pumpHalfClosing(_ channel: LibSSH2Channel, events: Int16, progressed: Bool) -> Bool {
        var progressed = progressed
        if socketEnded, toChannel.isEmpty, !eofSent {
            switch channel.sendEOF() {
            case .wouldBlock: break
            case .done:
                eofSent = true
                progressed = true
            case .failed(let code):
                eofSent = true
                failChannel(code, "ending the direct-tcpip channel's input")
            }
        }
        if channelEnded, toSocket.isEmpty, !socketShutDown {
            socketShutDown = true
            _ = try? SystemCall.shutdown(fd, Int32(SHUT_WR))  // a failure: the peer is gone already
        }
        if socketBroken || eofSent && socketShutDown {
            outputEnded()
            abandon()
            finish()
            return true
        }
        watcher.arm(events)
        return progressed
    }

    /// Moves channel data to the socket; true when the socket is full.
    private func channelToSocket(_ channel: LibSSH2Channel, _ progressed: inout Bool) -> Bool {
        while !channelEnded {
            if !toSocket.isEmpty {
                // nil: the socket is full; a failure (0): the next connection is gone.
                let sent: Int?
                do {
                    sent = try toSocket.withUnsafeBytes { buffer throws(SystemCallError) in try SystemCall.send(fd, from: buffer) }
                } catch {
                    sent = 0
                }
                guard let sent else { return true }
                if sent > 0 {
                    toSocket.removeFirst(sent)
                    progressed = true
                    continue
                }
                socketEnded = true  // the next connection is gone
                socketBroken = true
                toSocket = []
                return false
            }
            let read = loop.scratch.withUnsafeMutableBytes { buffer in
                channel.read(.stdout, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<Self.chunk]))
            }
            switch read {
            case .done(let count) where count > 0:
                toSocket.append(contentsOf: loop.scratch[0..<count])
                progressed = true
            case .done, .wouldBlock:
                if channel.receivedEOF { channelEnded = true }
                return false
            case .failed(let code):
                failChannel(code, "reading from the direct-tcpip channel")
                return false
            }
        }
        return false
    }

    /// Moves socket data to the channel; true when the socket had nothing more to read.
    private func socketToChannel(_ channel: LibSSH2Channel, _ progressed: inout Bool) -> Bool {
        while !channelEnded || halfCloses {
            if !toChannel.isEmpty {
                switch toChannel.withUnsafeBytes({ channel.write($0) }) {
                case .done(let written) where written > 0:
                    toChannel.removeFirst(written)
                    progressed = true
                    continue
                case .wouldBlock:
                    return false  // the loop polls the session's socket
                case .done:
                    failChannel(0, "writing to the direct-tcpip channel")
                    return false
                case .failed(let code):
                    failChannel(code, "writing to the direct-tcpip channel")
                    return false
                }
            }
            if socketEnded { return false }
            // nil: nothing to read now; a failure (0): the socket's end is gone.
            let count: Int?
            do {
                count = try readBuffer.withUnsafeMutableBytes { buffer throws(SystemCallError) in try SystemCall.receive(fd, into: buffer) }
            } catch {
                count = 0
                socketBroken = true
            }
            if let count, count > 0 {
                toChannel = Array(readBuffer[0..<count])
                progressed = true
            } else if count == nil {
                return true
            } else {
                socketEnded = true
                progressed = true
                return false
            }
        }
        return false
    }

    private func failChannel(_ code: Int32, _ operation: String) {
        if LibSSH2Code.isFatal(code) {
            loop.lose(loop.transport.error(operation))
        } else {
            channelEnded = true
        }
    }

    /// Closes the local socket, and the connection when it is dedicated to this relay; runs once.
    private func finish() {
        guard socketHolder == .relay else { return }
        socketHolder = .closed
        watcher.stop()
        SystemCall.close(fd)
        if owner != nil { loop.requestClose() }
        owner = nil
    }

    func handle(_ event: ChannelEvent) {
        switch event {
        case .setupFailed(let error):
            opened.complete(.failure(error))
            if halfCloses { release() } else { finish() }
        case .remoteClosed: finish()
        case .connectionEnded(let error, _):
            opened.complete(.failure(error))
            if halfCloses, !announced { release() } else { finish() }
        case .connectionClosing: abandon()
        case .deadlineExpired: break  // a relay has no deadline: it lives as long as its socket
        }
    }

    /// Gives a forwarded connection whose channel never opened back to its caller (nothing was
    /// sent on it yet): it may be carried over the next link, or closed.
    private func release() {
        guard socketHolder == .relay else { return }
        socketHolder = .caller
        watcher.stop()
    }
}
