import Foundation

/// One channel on the I/O thread: drives its ``ChannelStateMachine`` (wait for a slot, open,
/// set up, run, await the remote close, close and free) by making the libssh2 calls each state
/// asks for. Subclasses fill in what "run" means.
///
/// libssh2 1.10 can have only one channel open in flight per session, and only one channel
/// waiting for a request reply (see LIBSSH2-NOTES.md), so the loop hands out those two turns.
/// Confined to the connection's I/O thread.
class ChannelOperation {
    typealias Phase = ChannelStateMachine.Phase

    unowned let loop: LoopContext
    private var machine: ChannelStateMachine
    /// Control operations (killing a process group) may use the channel slot kept for them.
    let isControl: Bool
    /// When the loop should call ``deadlineExpired()``.
    var deadline: ContinuousClock.Instant?

    init(loop: LoopContext, setupRequests: [ChannelSetupRequest], isControl: Bool = false) {
        self.loop = loop
        machine = ChannelStateMachine(setupRequests: setupRequests)
        self.isControl = isControl
    }

    /// Where the channel stands.
    var phase: Phase { machine.phase }

    // MARK: Hooks for subclasses

    /// Moves data while running; returns true when anything happened.
    func pump(_ channel: LibSSH2Channel) -> Bool { false }
    /// The channel's setup failed or the server refused it.
    func setupFailed(_ error: SSHError) {}
    /// The remote side closed; `status` is its exit status or signal, if it sent one.
    func remoteClosed(status: ExitStatus?) {}
    /// The connection is gone: report `error` to whoever waits.
    func connectionFailed(_ error: SSHError) {}
    /// The deadline passed.
    func deadlineExpired() {}
    /// The connection is closing: stop what runs on the box (the loop waits for control channels).
    func connectionClosing() {}
    /// Whether the operation waits on the server now (not paused by its consumer).
    var isWaitingOnPeer: Bool { phase != .queued && phase != .done }

    /// One line for logs: what the operation is and where it stands.
    var diagnostics: String { "\(type(of: self)) \(phase)" }

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

    // MARK: Life cycle driven by the loop

    /// Called by the loop when this operation has a slot and the open turn.
    final func beginOpening() { transition { try $0.beginOpening() } }

    /// Applies one transition of the channel's life cycle. One it refuses is a bug in rws (a debug
    /// build has stopped already): the channel is given up and its caller told, never left as it was.
    @discardableResult
    private func transition<T>(_ body: (inout ChannelStateMachine) throws -> T) -> T? {
        do {
            return try body(&machine)
        } catch {  // only ever a ChannelStateViolation: the machine's transitions throw nothing else
            loop.configuration.logger.error("channel life cycle refused a transition", metadata: ["violation": "\(error)"])
            abandon()
            setupFailed(.channelFailed(operation: "running a channel", reason: "rws's channel life cycle refused \(error) (a bug in rws)"))
            return nil
        }
    }

    /// Advances the state machine; true when something happened.
    final func advance() -> Bool {
        switch machine.state {
        case .queued, .done: return false
        case .opening: return stepOpen()
        case .settingUp: return stepSetup()
        case .running(let channel): return pump(channel)
        case .awaitingRemoteClose(let channel): return stepAwaitRemoteClose(channel)
        case .closing(let channel): return stepClose(channel)
        }
    }

    /// Ends the channel from this side: no more setup; running channels are closed.
    final func abandon() {
        if machine.abandon(holdsRequestTurn: loop.requestHolder === self) == .dequeue { loop.dequeue(self) }
    }

    /// Opens the channel. Subclasses that open it through another libssh2 call (the SFTP
    /// session, whose `libssh2_sftp_init` opens its own channel) override this.
    func attemptOpen() -> LibSSH2Outcome<LibSSH2Channel> {
        LibSSH2Channel.openSession(on: loop.transport)
    }

    /// Whether a failed open means the server refused the channel (its MaxSessions), so that it
    /// is retried once another channel is freed.
    func openWasRefused(_ code: Int32) -> Bool { code == LibSSH2Code.channelFailure }

    private func stepOpen() -> Bool {
        let code: Int32
        switch attemptOpen() {
        case .wouldBlock:
            return false
        case .done(let opened):
            loop.handle.channelsOpened.add(1, ordering: .relaxed)
            loop.openFinished(self)
            transition { try $0.opened(opened) }
            return true
        case .failed(let failure):
            code = failure
        }
        loop.openFinished(self)
        if LibSSH2Code.isFatal(code) {
            loop.lose(loop.transport.error("opening a channel"))
            return true
        }
        let retry = openWasRefused(code) && loop.requeueAfterRefusal(self)
        guard transition({ try $0.openFailed(retry: retry) }) != nil else { return true }
        if retry { return true }
        loop.channelFreed(self)
        setupFailed(.channelFailed(operation: "opening a channel", reason: loop.transport.lastError.message))
        return true
    }

    private func stepSetup() -> Bool {
        let holdsTurn = loop.requestHolder === self
        let turnIsFree = loop.requestHolder == nil
        let step = transition { try $0.nextSetupStep(holdsRequestTurn: holdsTurn, requestTurnIsFree: turnIsFree) }
        guard let step else { return true }
        switch step {
        case .finished:
            if holdsTurn { loop.requestHolder = nil }
            return true
        case .waitForTurn:
            return false
        case .send(let request, let channel):
            loop.requestHolder = self
            let reply = channel.send(request)
            if case .wouldBlock = reply { return false }
            loop.requestHolder = nil
            guard case .failed(let rc) = reply else {
                transition { try $0.requestAccepted() }
                return true
            }
            if LibSSH2Code.isFatal(rc) {
                loop.lose(loop.transport.error("starting a remote program"))
                return true
            }
            guard transition({ try $0.requestRefused() }) != nil else { return true }
            setupFailed(.channelFailed(operation: describe(request), reason: loop.transport.lastError.message))
            return true
        }
    }

    private func describe(_ request: ChannelSetupRequest) -> String {
        switch request {
        case .pty: return "requesting a terminal"
        case .exec: return "starting the command"
        case .shell: return "starting a shell"
        case .subsystem(let name): return "starting the \(name) subsystem"
        }
    }

    /// Called by subclasses when both output streams reached their end.
    final func outputEnded() { transition { try $0.outputEnded() } }

    private func stepAwaitRemoteClose(_ channel: LibSSH2Channel) -> Bool {
        if channel.receivedEOF {
            switch channel.waitClosed() {
            case .wouldBlock: return false
            case .failed(let rc) where LibSSH2Code.isFatal(rc):
                loop.lose(loop.transport.error("waiting for a command to end"))
                return true
            case .done, .failed: break
            }
        }
        // exit-status can come after EOF; after the remote CLOSE it has come if it ever will.
        let status = channel.exitStatus(transport: loop.transport)
        guard transition({ try $0.remoteClosed() }) != nil else { return true }
        remoteClosed(status: status)
        return true
    }

    private func stepClose(_ channel: LibSSH2Channel) -> Bool {
        // Until the remote process exits this keeps answering EAGAIN: keep polling, never block.
        if case .wouldBlock = channel.free() { return false }
        transition { try $0.freed() }
        loop.channelFreed(self)
        return true
    }

    /// Whether the connection died before this channel sent its first request: whatever it was
    /// to run never started on the box.
    private(set) var lostBeforeStart = false

    /// The connection died under this operation.
    final func failForConnection(_ error: SSHError) {
        lostBeforeStart = machine.connectionLost()  // the channel is freed with the session
        connectionFailed(error)
    }
}
