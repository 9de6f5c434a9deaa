/// The state one channel operation carries through its life: its ``ChannelStateMachine``, the
/// loop it runs on, whether it is a control channel, and its deadline. The operation's kind holds
/// it; the loop drives it (ChannelOperation+Driving.swift). Confined to the connection's I/O thread.
final class ChannelLifecycle {
    unowned let loop: LoopContext
    var machine: ChannelStateMachine
    /// Control operations (killing a process group) may use the channel slot kept for them.
    let isControl: Bool
    /// When the loop should send ``ChannelEvent/deadlineExpired``.
    var deadline: ContinuousClock.Instant?

    init(loop: LoopContext, setupRequests: [ChannelSetupRequest], isControl: Bool = false) {
        self.loop = loop
        machine = ChannelStateMachine(setupRequests: setupRequests)
        self.isControl = isControl
    }

    /// Where the channel stands.
    var phase: ChannelStateMachine.Phase { machine.phase }

    /// Admitted and not yet done: what every kind waits on the server for, unless paused.
    var isUnderway: Bool { phase != .queued && phase != .done }

    /// Whether libssh2 holds received data for this channel that nobody has read yet.
    var hasQueuedInput: Bool {
        switch machine.state {
        case .running(let channel), .awaitingRemoteClose(let channel):
            return channel.hasQueuedData(.stdout) || channel.hasQueuedData(.stderr)
        default:
            return false
        }
    }

    /// Whether libssh2 holds a short packet (a keepalive reply) in the session's queue; nil unless running.
    var sessionHoldsShortPacket: Bool? {
        guard case .running(let channel) = machine.state else { return nil }
        return channel.sessionHoldsShortPacket
    }
}
