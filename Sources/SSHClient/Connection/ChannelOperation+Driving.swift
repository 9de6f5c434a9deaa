/// The life cycle every channel kind shares, driven by the loop: wait for a slot, open, set up,
/// run (the kind's ``ChannelOperation/pump(_:)``), await the remote close, free; each step makes
/// the libssh2 calls its ``ChannelStateMachine`` state asks for and reports the outcome back to it.
extension ChannelOperation {
    /// Called by the loop when this operation has a slot and the open turn.
    func beginOpening() { transition { try $0.beginOpening() } }

    /// Advances the channel; true when something happened.
    func advance() -> Bool {
        switch lifecycle.machine.state {
        case .queued, .done: return false
        case .opening: return stepOpen()
        case .settingUp: return stepSetup()
        case .running(let channel): return pump(channel)
        case .awaitingRemoteClose(let channel): return stepAwaitRemoteClose(channel)
        case .closing(let channel): return stepClose(channel)
        }
    }

    /// Ends the channel from this side: no more setup; running channels are closed.
    func abandon() {
        if lifecycle.machine.abandon(holdsRequestTurn: loop.requestHolder === self) == .dequeue { loop.dequeue(self) }
    }

    /// Called by the kind when both output streams reached their end.
    func outputEnded() { transition { try $0.outputEnded() } }

    /// The connection died under this operation.
    func failForConnection(_ error: SSHError) {
        let beforeStart = lifecycle.machine.connectionLost()  // the channel is freed with the session
        handle(.connectionEnded(error, beforeStart: beforeStart))
    }

    /// Whether libssh2 holds received data for this channel that nobody has read yet.
    var hasQueuedInput: Bool { lifecycle.hasQueuedInput }

    /// Applies one transition of the channel's life cycle. One it refuses is a bug in rws (a debug
    /// build has stopped already): the channel is given up and its caller told, never left as it was.
    @discardableResult
    private func transition<T>(_ body: (inout ChannelStateMachine) throws -> T) -> T? {
        do {
            return try body(&lifecycle.machine)
        } catch {  // only ever a ChannelStateViolation: the machine's transitions throw nothing else
            loop.configuration.logger.error("channel life cycle refused a transition", metadata: ["violation": "\(error)"])
            abandon()
            handle(
                .setupFailed(
                    .channelFailed(operation: "running a channel", reason: "rws's channel life cycle refused \(error) (a bug in rws)")))
            return nil
        }
    }

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
        handle(.setupFailed(.channelFailed(operation: "opening a channel", reason: loop.transport.lastError.message)))
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
            handle(.setupFailed(.channelFailed(operation: request.activity, reason: loop.transport.lastError.message)))
            return true
        }
    }

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
        handle(.remoteClosed(status))
        return true
    }

    private func stepClose(_ channel: LibSSH2Channel) -> Bool {
        // Until the remote process exits this keeps answering EAGAIN: keep polling, never block.
        if case .wouldBlock = channel.free() { return false }
        transition { try $0.freed() }
        loop.channelFreed(self)
        return true
    }
}

extension ChannelSetupRequest {
    /// What sending it does, for error messages.
    var activity: String {
        switch self {
        case .pty: return "requesting a terminal"
        case .exec: return "starting the command"
        case .shell: return "starting a shell"
        case .subsystem(let name): return "starting the \(name) subsystem"
        }
    }
}
