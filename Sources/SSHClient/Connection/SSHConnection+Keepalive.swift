extension SSHConnection {
    /// Sends `count` keepalives of `kind` back to back and returns once they are out (and, for
    /// ``KeepaliveKind/probe``, answered): a connection's days of keepalives in seconds.
    ///
    /// For benchmarks only: rws-bench's `age` benchmark measures latency and memory after a day's,
    /// a week's and a month's worth of each kind. Keep an operation open on the connection while
    /// it runs (a shell): only channel reads take the replies off the socket.
    @_spi(Benchmarks)
    public func sendKeepalives(_ kind: KeepaliveKind, count: Int) async throws {
        let done = Promise<Void>()
        let burst = KeepaliveBurst(kind: kind, count: count, done: done)
        if let error = loop.submit({ loop in loop.keepaliveBursts.append(burst) }) { throw error }
        try await done.value()
    }

    /// The link's round trip as one keepalive probe takes it: a channel open the server refuses
    /// at once, starting no process on the box (a handshake does start one, so a busy box
    /// lengthens it more).
    func probeRoundTrip() async throws -> Duration {
        let started = ContinuousClock.now
        try await sendKeepalives(.probe, count: 1)
        return ContinuousClock.now - started
    }

    /// Keepalive probes answered on the current loop, and whether a keepalive reply sits in the
    /// session's packet queue. For tests.
    func keepaliveState() async throws -> KeepaliveState {
        let result = Promise<KeepaliveState>()
        if let error = loop.submit({ loop in result.complete(.success(loop.keepaliveState)) }) { throw error }
        return try await result.value()
    }
}

/// What the keepalive tests check on a connection's loop.
struct KeepaliveState: Sendable {
    /// Probes the server answered.
    let answered: Int
    /// Whether a reply to a keepalive sits in libssh2's queue; nil when no channel runs to ask through.
    let replyQueued: Bool?
}
