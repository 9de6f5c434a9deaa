/// The connection's keepalive: an open of a channel type no server offers, whose refusal
/// libssh2 reads and frees.
///
/// libssh2 1.10's own keepalive (`libssh2_keepalive_send`, a global request with want-reply)
/// leaves every reply (SSH_MSG_REQUEST_FAILURE) in the session's packet list for the life of the
/// connection, and every channel read walks that list (see docs/benchmarks.md, "Connection age").
/// A refused open is answered with SSH_MSG_CHANNEL_OPEN_FAILURE, which `libssh2_channel_open_ex`
/// takes off the list itself. OpenSSH and dropbear refuse an unknown type without allocating
/// anything or counting it against MaxSessions.
///
/// The open runs on libssh2's one channel-open state machine: the loop starts a probe only while
/// no channel is opening and admits no open while one runs. I/O thread only.
final class LivenessProbe {
    /// The channel type asked for; any name the server does not know works.
    static let channelType = "keepalive@rws.invalid"

    private(set) var inFlight = false
    /// When the last probe went out; the next is due an interval after this or after the last receive.
    private var lastSent = ContinuousClock.now
    /// A channel the server accepted against all expectation; freed before the next probe.
    private var accepted: LibSSH2Channel?
    private(set) var answered = 0

    /// Whether a probe should go out now: none is in flight and the connection has been silent
    /// both ways for `interval`.
    func isDue(now: ContinuousClock.Instant, lastReceive: ContinuousClock.Instant, interval: Duration) -> Bool {
        isIdle && now - max(lastSent, lastReceive) >= interval
    }

    /// Whether a probe may start: none is in flight and no accepted channel waits to be freed.
    var isIdle: Bool { !inFlight && accepted == nil }

    func start(_ transport: SSHTransport) {
        inFlight = true
        lastSent = .now
        _ = advance(transport)
    }

    /// Drives the open in flight (or the freeing of an accepted channel); true when it ended.
    func advance(_ transport: SSHTransport) -> Bool {
        if let channel = accepted {
            if case .wouldBlock = channel.free() { return false }
            accepted = nil
            return true
        }
        guard inFlight else { return false }
        let opened = LibSSH2Channel.openUnknownType(Self.channelType, on: transport)
        if case .wouldBlock = opened { return false }
        // Refused (the expected answer), accepted, or failed: the open state machine is idle again.
        inFlight = false
        switch opened {
        case .done(let channel):
            answered += 1
            accepted = channel
            return advance(transport)
        case .failed(let code):
            if code == LibSSH2Code.channelFailure { answered += 1 }
        case .wouldBlock:
            break
        }
        return true
    }
}
