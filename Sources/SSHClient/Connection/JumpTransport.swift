import Foundation
import Platform

/// Reaches a host through its jump hosts (OpenSSH `ProxyJump`): connects the last jump host
/// (itself reached through the ones before it), opens a `direct-tcpip` channel from it to the
/// target, and returns one end of a local socket pair relayed to that channel. The target's
/// session runs over that end as over a TCP socket.
///
/// Runs on the target connection's I/O thread during establishment; it blocks that thread
/// while the jump connection is made, bounded by the target's connect deadline.
enum JumpTransport {
    static func open(
        to target: SSHConnectionConfiguration, deadline: ContinuousClock.Instant, cancellation: EstablishmentCancellation? = nil
    ) throws(SSHError) -> TCPSocket {
        guard var hop = target.jumpHosts.last else { throw .invalidArgument("no jump host to connect through") }
        guard hop.jumpHosts.isEmpty else {
            throw .invalidArgument(
                "jump host \(hop.host) has jump hosts of its own: list the whole chain, first hop first, "
                    + "in the target's jumpHosts")
        }
        hop.jumpHosts = Array(target.jumpHosts.dropLast())
        hop.carriesJumpTraffic = true
        // The target reconnects as a whole (its hops with it); a hop never reconnects on its own.
        hop.reconnect = nil
        let timedOut = SSHError.connectTimedOut(host: target.host, port: target.port, after: target.connectTimeout)
        target.logger.info(
            "connecting through a jump host", metadata: ["jump": "\(hop.host):\(hop.port)", "hops": "\(target.jumpHosts.count)"])
        let connecting = BlockingBridge.run(until: deadline, cancellation: cancellation) { [hop] in try await SSHConnection.connect(hop) }
        if cancellation?.isCancelled == true {
            if case .success(let connection)? = connecting { closeAndWait(connection) }
            throw EstablishmentCancellation.error
        }
        let connection = try unwrap(connecting, timedOut)
        let (local, relayed) = try socketPair()
        let opening = BlockingBridge.run(until: deadline, cancellation: cancellation) { [host = target.host, port = target.port] in
            try await connection.openRelay(to: host, port: port, fd: relayed)
        }
        do {
            try cancellation?.check()
            try unwrap(opening, timedOut)
        } catch {
            // The relay, if it ever opens, sees its peer gone and ends with the jump connection.
            TCPSocket(fd: local, jumpConnection: connection).closeDescriptor()
            if case .channelFailed(_, let reason) = error {
                throw .connectionRefused(
                    host: target.host, port: target.port,
                    reason: "jump host \(hop.host) port \(hop.port) could not connect there (\(reason))")
            }
            throw error
        }
        target.logger.debug("jump channel open", metadata: ["jump": "\(hop.host):\(hop.port)"])
        return TCPSocket(fd: local, jumpConnection: connection)
    }

    /// Closes a jump connection from its target's I/O thread (at the target's teardown) and
    /// waits for it, a bounded time: it has nothing left to stop, its relay just lost its socket.
    static func closeAndWait(_ connection: SSHConnection) {
        _ = BlockingBridge.run(until: .now + .seconds(10)) { await connection.close() }
    }

    /// The value of a bridged call, its error as an `SSHError`, or `timedOut` when it ran out of time.
    private static func unwrap<T>(_ result: Result<T, any Error>?, _ timedOut: SSHError) throws(SSHError) -> T {
        switch result {
        case .success(let value)?: return value
        case .failure(let error as SSHError)?: throw error
        case .failure(let error)?: throw .channelFailed(operation: "connecting through the jump host", reason: "\(error)")
        case nil: throw timedOut
        }
    }

    /// A nonblocking, close-on-exec UNIX stream socket pair: (the target session's end, the relay's end).
    private static func socketPair() throws(SSHError) -> (Int32, Int32) {
        do {
            return try SystemCall.socketPair()
        } catch {
            throw .libssh2(operation: "socketpair", code: -1, message: error.reason)
        }
    }
}
