/// Which keepalive a burst sends: libssh2's own, or the one rws sends now.
@_spi(Benchmarks)
public enum KeepaliveKind: String, Sendable, CaseIterable {
    /// libssh2 1.10's `keepalive@libssh2.org` global request with want-reply, as rws sent it before:
    /// every reply stays queued in the session for the life of the connection.
    case globalRequest = "global-request"
    /// The refused channel open rws sends now: libssh2 reads and frees every reply.
    case probe
}

/// Keepalives sent back to back so that a benchmark reaches a day's or a month's worth in
/// seconds. I/O thread only.
struct KeepaliveBurst {
    let kind: KeepaliveKind
    let count: Int
    var sent = 0
    /// Settled when the burst is done, or with the connection's error when it ends first.
    let done: Promise<Void>

    func isDone(_ probe: LivenessProbe) -> Bool { sent >= count && !probe.inFlight }

    func finish() {
        done.complete(.success(()))
    }

    /// Sends up to 64 global requests while the socket takes them; true when any went out.
    mutating func sendGlobalRequests(_ transport: SSHTransport) -> Bool {
        var any = false
        while sent < count, any == false || sent % 64 != 0 {
            guard transport.sendGlobalKeepalive() else { break }
            sent += 1
            any = true
            if transport.blockDirections.contains(.outbound) { break }
        }
        return any
    }
}
