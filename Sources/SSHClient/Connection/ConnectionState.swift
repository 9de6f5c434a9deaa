/// Where a connection stands, as ``SSHConnection/states()`` reports it.
public enum ConnectionState: Sendable, Equatable, CustomStringConvertible {
    /// Attempt `attempt` to re-establish the session is under way (TCP, handshake, authentication).
    case connecting(attempt: Int)
    /// The session is up; commands run.
    case connected
    /// The connection was lost; attempt `attempt` starts after `nextDelay`. New work waits for it
    /// (up to ``ReconnectPolicy/waitForConnection``); work that was in flight failed with
    /// ``SSHError/connectionLost(reason:)``.
    case reconnecting(attempt: Int, nextDelay: Duration, reason: String)
    /// The connection has ended for good: closed by ``SSHConnection/close()`` (`reason` nil), or
    /// lost without a reconnect policy, or after the policy gave up.
    case closed(reason: String?)

    /// One line for people: "connected", "reconnecting (attempt 2 in 2.0 s): …".
    public var description: String {
        switch self {
        case .connecting(let attempt): return "connecting (attempt \(attempt))"
        case .connected: return "connected"
        case .reconnecting(let attempt, let delay, let reason):
            return "reconnecting (attempt \(attempt) in \(delay.shortDescription)): \(reason)"
        case .closed(nil): return "closed"
        case .closed(let reason?): return "closed: \(reason)"
        }
    }
}

/// How a connection re-establishes itself after it was lost (opt-in through
/// ``SSHConnectionConfiguration/reconnect``).
///
/// Delays grow from ``initialDelay`` by ``multiplier`` up to ``maximumDelay``, each shifted by a
/// random ±``jitter`` fraction so that many clients do not retry in step. Commands in flight when
/// the link dropped fail with ``SSHError/connectionLost(reason:)`` and are never re-run; new
/// commands, shells and file calls wait for the next link, and idempotent reads (listings,
/// stats, file reads, commands started with `idempotent: true`) are retried on it.
public struct ReconnectPolicy: Sendable, Equatable {
    /// The delay before the first attempt.
    public var initialDelay: Duration
    /// The longest delay between attempts.
    public var maximumDelay: Duration
    /// How much each delay grows over the previous one.
    public var multiplier: Double
    /// The random share each delay may be shifted by (0.2: ±20 %).
    public var jitter: Double
    /// Attempts before giving up; nil tries until ``SSHConnection/close()``.
    public var maximumAttempts: Int?
    /// How long new work waits for a reconnect before it fails with `connectionLost`.
    public var waitForConnection: Duration

    /// 1 s → 30 s, doubling, ±20 % jitter, no limit; new work waits up to 30 s.
    public init(
        initialDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(30), multiplier: Double = 2,
        jitter: Double = 0.2, maximumAttempts: Int? = nil, waitForConnection: Duration = .seconds(30)
    ) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.multiplier = multiplier
        self.jitter = jitter
        self.maximumAttempts = maximumAttempts
        self.waitForConnection = waitForConnection
    }

    /// The delay before attempt `attempt` (1-based), jitter included.
    func delay(before attempt: Int) -> Duration {
        var base = initialDelay
        for _ in 1..<max(1, attempt) {
            base = min(maximumDelay, base * multiplier)
            if base >= maximumDelay { break }
        }
        let shift = jitter > 0 ? Double.random(in: -jitter...jitter) : 0
        return max(.zero, min(maximumDelay, base * (1 + shift)))
    }
}
