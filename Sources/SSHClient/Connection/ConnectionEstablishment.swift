import Foundation
import Logging

/// The steps from a bare address to an authenticated session: TCP connect, handshake,
/// host key check, authentication. Runs on the connection's I/O thread before it serves requests.
struct ConnectionEstablishment {
    let configuration: SSHConnectionConfiguration
    /// Ends every wait once the caller of ``SSHConnection/connect(_:)`` gives up.
    var cancellation: EstablishmentCancellation? = nil

    /// What establishing gives the loop.
    struct Session {
        let socket: TCPSocket
        let transport: SSHTransport
        /// The server's identification string (`SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3`) as it sent it.
        let identification: String?
        /// An upper bound of the link's round trip: half the SSH handshake, whose key exchange
        /// waits for the server twice (its banner and key exchange init, then its reply). A busy
        /// box makes it larger, never smaller.
        let roundTripBound: Duration
    }

    /// The socket and the authenticated session, and what the handshake showed of the server and the link.
    func establish() throws(SSHError) -> Session {
        let deadline = ContinuousClock.now + configuration.connectTimeout
        let logger = configuration.logger
        logger.info("connecting", metadata: ["host": "\(configuration.host)", "port": "\(configuration.port)"])
        let socket =
            configuration.jumpHosts.isEmpty
            ? try TCPSocket.connect(
                host: configuration.host, port: configuration.port, timeout: configuration.connectTimeout, cancellation: cancellation)
            : try JumpTransport.open(to: configuration, deadline: deadline, cancellation: cancellation)
        do throws(SSHError) {
            let transport = try SSHTransport()
            transport.context.quickAcknowledgement = configuration.carriesJumpTraffic
            let waiter = SocketWaiter(
                transport: transport, socket: socket, deadline: deadline,
                onTimeout: .connectTimedOut(
                    host: configuration.host, port: configuration.port,
                    after: configuration.connectTimeout),
                cancellation: cancellation)
            logger.debug("TCP connected")
            let knownHosts = try openKnownHosts(transport)
            preferKnownHostKeyTypes(transport, knownHosts)
            let handshakeStart = ContinuousClock.now
            let rc: Int32
            do throws(SSHError) {
                rc = try waiter.retry { transport.handshake(socket: socket.fd) }
            } catch .connectTimedOut {
                throw .handshakeTimedOut(
                    host: configuration.host, port: configuration.port, after: configuration.connectTimeout,
                    bannerReceived: transport.serverBanner != nil)
            }
            if rc != 0, transport.serverBanner == nil, LibSSH2Code.connectionEnded.contains(transport.lastError.code) {
                throw .closedBeforeIdentification(host: configuration.host, port: configuration.port)
            }
            if rc != 0 {
                throw .handshakeFailed(host: configuration.host, port: configuration.port, reason: describeHandshakeFailure(transport))
            }
            let handshake = ContinuousClock.now - handshakeStart
            let identification = transport.serverBanner
            logger.debug(
                "SSH handshake done",
                metadata: ["server": "\(identification ?? "?")", "took": "\(handshake.formatted(.units(allowed: [.milliseconds])))"])
            let verifying = ContinuousClock.now
            try HostKeyVerification(configuration: configuration, cancellation: cancellation).verify(transport, knownHosts)
            // The time a host key decision took is not the link's: authentication gets it back.
            let authenticating = SocketWaiter(
                transport: transport, socket: socket, deadline: deadline + (ContinuousClock.now - verifying),
                onTimeout: waiter.onTimeout, cancellation: cancellation)
            var authenticator = Authenticator(configuration: configuration, transport: transport, waiter: authenticating)
            try authenticator.authenticate()
            logger.info("authenticated", metadata: ["user": "\(configuration.user)"])
            try socket.setUserTimeout(configuration.deadPeerTimeout)
            return Session(socket: socket, transport: transport, identification: identification, roundTripBound: handshake / 2)
        } catch {
            socket.shutdownBoth()
            socket.closeDescriptor()
            throw error
        }
    }

    private func openKnownHosts(_ transport: SSHTransport) throws(SSHError) -> KnownHostsFile? {
        if configuration.hostKeyPolicy == .insecureAcceptAnything { return nil }
        return try KnownHostsFile(path: configuration.knownHostsFile, transport: transport)
    }

    /// libssh2 1.10 asks for ECDSA first: a host known only by its ed25519 key would look unknown.
    private func preferKnownHostKeyTypes(_ transport: SSHTransport, _ knownHosts: KnownHostsFile?) {
        guard let knownHosts else { return }
        let known = knownHosts.knownAlgorithms(host: configuration.host, port: configuration.port)
        let order = known + HostKeyName.defaultOrder.filter { !known.contains($0) }
        transport.preferHostKeyAlgorithms(order)
    }

    private func describeHandshakeFailure(_ transport: SSHTransport) -> String {
        let (code, message) = transport.lastError
        if transport.handshakeFoundNoCommonAlgorithm {
            return "\(message) (no common algorithm: libssh2 \(libSSH2Version) supports ed25519/ECDSA/ssh-rsa host keys; "
                + "a server with only an RSA host key needs libssh2 1.11 or later)"
        }
        return message.isEmpty ? "libssh2 error \(code)" : message
    }
}
