import CLibSSH2
import Foundation
import Logging

/// The steps from a bare address to an authenticated session: TCP connect, handshake,
/// host key check, authentication. Runs on the connection's I/O thread before it serves requests.
struct SessionEstablishment {
    let configuration: SSHConnectionConfiguration

    func establish() throws(SSHError) -> (TCPSocket, LibSSH2Session) {
        let deadline = ContinuousClock.now + configuration.connectTimeout
        let logger = configuration.logger
        logger.info("connecting", metadata: ["host": "\(configuration.host)", "port": "\(configuration.port)"])
        let socket = configuration.jumpHosts.isEmpty
            ? try TCPSocket.connect(host: configuration.host, port: configuration.port, timeout: configuration.connectTimeout)
            : try JumpTransport.open(to: configuration, deadline: deadline)
        do throws(SSHError) {
            let session = try LibSSH2Session()
            session.context.quickAcknowledgement = configuration.carriesJumpTraffic
            let waiter = SocketWaiter(session: session, socket: socket, deadline: deadline,
                                      onTimeout: .connectTimedOut(host: configuration.host, port: configuration.port,
                                                                  after: configuration.connectTimeout))
            logger.debug("TCP connected")
            let knownHosts = try openKnownHosts(session)
            preferKnownHostKeyTypes(session, knownHosts)
            let rc = try waiter.retry { libssh2_session_handshake(session.raw, libssh2_socket_t(socket.fd)) }
            if rc != 0 {
                throw .handshakeFailed(host: configuration.host, port: configuration.port, reason: describeHandshakeFailure(session))
            }
            logger.debug("SSH handshake done")
            try HostKeyVerification(configuration: configuration, deadline: deadline).verify(session, knownHosts)
            try Authenticator(configuration: configuration, session: session, waiter: waiter).authenticate()
            logger.info("authenticated", metadata: ["user": "\(configuration.user)"])
            try socket.setUserTimeout(configuration.deadPeerTimeout)
            return (socket, session)
        } catch {
            socket.shutdownBoth()
            socket.closeDescriptor()
            throw error
        }
    }

    private func openKnownHosts(_ session: LibSSH2Session) throws(SSHError) -> KnownHostsFile? {
        if configuration.hostKeyPolicy == .insecureAcceptAnything { return nil }
        return try KnownHostsFile(path: configuration.knownHostsFile, session: session)
    }

    /// libssh2 1.10 asks for ECDSA first: a host known only by its ed25519 key would look unknown.
    private func preferKnownHostKeyTypes(_ session: LibSSH2Session, _ knownHosts: KnownHostsFile?) {
        guard let knownHosts else { return }
        let known = knownHosts.knownAlgorithms(host: configuration.host, port: configuration.port)
        let order = known + HostKeyName.defaultOrder.filter { !known.contains($0) }
        session.setPreference(LIBSSH2_METHOD_HOSTKEY, order)
    }

    private func describeHandshakeFailure(_ session: LibSSH2Session) -> String {
        let (code, message) = session.lastError
        if code == LIBSSH2_ERROR_KEX_FAILURE || code == LIBSSH2_ERROR_METHOD_NONE {
            return "\(message) (no common algorithm: libssh2 \(libSSH2Version) supports ed25519/ECDSA/ssh-rsa host keys; "
                + "a server with only an RSA host key needs libssh2 1.11 or later)"
        }
        return message.isEmpty ? "libssh2 error \(code)" : message
    }
}

/// The libssh2 version this process runs with, e.g. "1.10.0".
var libSSH2Version: String {
    libssh2_version(0).map { String(cString: $0) } ?? "unknown"
}
