/// What happened to a channel that its kind must answer: every kind handles every event (an
/// exhaustive `switch`), so none is dropped by a default that does nothing.
enum ChannelEvent {
    /// The open or a setup request failed, the server refused the channel, or the life cycle
    /// refused a transition (a bug in rws): the channel never ran, or runs no more.
    case setupFailed(SSHError)
    /// The remote side closed; carries its exit status or signal, if it sent one.
    case remoteClosed(ExitStatus?)
    /// The connection ended (closed or lost); `beforeStart` when the channel had not sent its
    /// first request: whatever it was to run never started on the box.
    case connectionEnded(SSHError, beforeStart: Bool)
    /// The operation's ``ChannelLifecycle/deadline`` passed.
    case deadlineExpired
    /// The connection is closing: stop what runs on the box (the loop waits for control channels).
    case connectionClosing
}

/// One kind of channel on the I/O thread (exec, shell, SFTP, direct-tcpip): what "open" and
/// "run" mean for it, and how it answers the events of its life. The life itself — wait for a
/// slot, open, set up, run, await the remote close, free — is its ``lifecycle``, driven by the
/// loop through this protocol's extension (ChannelOperation+Driving.swift).
///
/// libssh2 1.10 can have only one channel open in flight per session, and only one channel
/// waiting for a request reply (see LIBSSH2-NOTES.md), so the loop hands out those two turns.
/// Confined to the connection's I/O thread.
protocol ChannelOperation: AnyObject {
    /// The channel's life cycle and the loop it runs on.
    var lifecycle: ChannelLifecycle { get }
    /// Opens the channel. The default opens a session channel; kinds that open through another
    /// libssh2 call (the SFTP session, a forwarded or direct-tcpip channel) implement it.
    func attemptOpen() -> LibSSH2Outcome<LibSSH2Channel>
    /// Whether a failed open means the server refused the channel (its MaxSessions), so that it
    /// is retried once another channel is freed.
    func openWasRefused(_ code: Int32) -> Bool
    /// Moves data while running; returns true when anything happened.
    func pump(_ channel: LibSSH2Channel) -> Bool
    /// Answers one event of the channel's life.
    func handle(_ event: ChannelEvent)
    /// Whether the operation waits on the server now (not paused by its consumer).
    var isWaitingOnPeer: Bool { get }
    /// One line for logs: what the operation is and where it stands.
    var diagnostics: String { get }
}

extension ChannelOperation {
    func attemptOpen() -> LibSSH2Outcome<LibSSH2Channel> {
        LibSSH2Channel.openSession(on: loop.transport)
    }

    func openWasRefused(_ code: Int32) -> Bool { code == LibSSH2Code.channelFailure }

    var isWaitingOnPeer: Bool { lifecycle.isUnderway }

    var diagnostics: String { "\(type(of: self)) \(phase)" }

    /// The loop the channel runs on.
    var loop: LoopContext { lifecycle.loop }

    /// Where the channel stands.
    var phase: ChannelStateMachine.Phase { lifecycle.phase }

    /// Control operations (killing a process group) may use the channel slot kept for them.
    var isControl: Bool { lifecycle.isControl }

    /// When the loop should send ``ChannelEvent/deadlineExpired``.
    var deadline: ContinuousClock.Instant? {
        get { lifecycle.deadline }
        set { lifecycle.deadline = newValue }
    }
}
