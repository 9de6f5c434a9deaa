/// The connection's SFTP session: a channel opened by `libssh2_sftp_init`, kept for the
/// connection's life, running queued ``SFTPOperation``s one at a time. Confined to the I/O thread.
///
/// `libssh2_sftp_init` opens a channel and sends the subsystem request inside, so opening holds
/// the loop's open turn (it is admitted like any channel, counting against MaxSessions) and also
/// waits for the request turn (`requestHolder`). Once running, every loop pass advances the head
/// of the queue, so SFTP work interleaves with the connection's other channels.
final class SFTPChannel: ChannelOperation {
    let lifecycle: ChannelLifecycle
    private var sftp: LibSSH2SFTP?
    private var queue: [SFTPOperation] = []
    private var parked: [SFTPOperation] = []
    private var brokenBy: SSHError?
    private var openFailure = ""
    /// Steps per pump before other channels get a turn.
    private let stepsPerPump = 256

    private init(loop: LoopContext) {
        lifecycle = ChannelLifecycle(loop: loop, setupRequests: [])
    }

    /// Queues `operation` on the loop's SFTP session, opening the session on first use.
    static func submit(_ operation: SFTPOperation, on loop: LoopContext) {
        if let refusal = loop.sftpRefusal {
            operation.fail(.file(.sftpUnavailable(reason: refusal)))
            return
        }
        let channel: SFTPChannel
        if let existing = loop.sftp {
            channel = existing
        } else {
            channel = SFTPChannel(loop: loop)
            loop.sftp = channel
            loop.enqueue(channel)
        }
        channel.queue.append(operation)
    }

    /// Puts parked operations back in the queue (their consumer made room, or gave up).
    func unpark() {
        queue.append(contentsOf: parked)
        parked = []
    }

    /// Cancels `operation` wherever it waits.
    func cancel(_ operation: SFTPOperation) {
        operation.cancel()
        if let index = parked.firstIndex(where: { $0 === operation }) {
            queue.append(parked.remove(at: index))
        }
    }

    // MARK: Opening

    /// How long the sftp-server may take to send its version once the session is set up.
    ///
    /// A server can accept the sftp subsystem and then fail to run its sftp-server (dropbear on
    /// a box without one, sshd whose `Subsystem` names a program that cannot run): the channel
    /// just ends. libssh2 1.10's `libssh2_sftp_init` reads that end as a short read and answers
    /// EAGAIN forever, while this open holds the loop's open and request turns, so every other
    /// channel of the connection would wait behind it. A healthy sftp-server answers within a
    /// round trip of starting.
    static let versionTimeout: Duration = .seconds(2)
    /// Why SFTP cannot be used on this connection, once known.
    private var unavailableReason: String?
    private var versionTimedOut = false

    func attemptOpen() -> LibSSH2Outcome<LibSSH2Channel> {
        guard loop.requestHolder == nil || loop.requestHolder === self else { return .wouldBlock }
        loop.requestHolder = self
        if versionTimedOut {
            loop.requestHolder = nil
            unavailableReason = "the server accepted the sftp subsystem, but no sftp-server answered within \(Self.versionTimeout)"
            return .failed(LibSSH2Code.channelFailure)
        }
        let code: Int32
        switch LibSSH2SFTP.start(on: loop.transport) {
        case .done(let session):
            loop.requestHolder = nil
            deadline = nil
            sftp = session
            return .done(session.channel)
        case .wouldBlock:
            if deadline == nil, loop.transport.lastError.message.contains("SSH_FXP_VERSION") {
                deadline = .now + Self.versionTimeout
            }
            return .wouldBlock
        case .failed(let failure):
            code = failure
        }
        loop.requestHolder = nil
        deadline = nil
        openFailure = loop.transport.lastError.message
        if openFailure.contains("subsystem") { unavailableReason = "the server refused the sftp subsystem" }
        return .failed(code)
    }

    func handle(_ event: ChannelEvent) {
        switch event {
        case .deadlineExpired: if phase == .opening { versionTimedOut = true }
        case .setupFailed(let error): setupFailed(error)
        case .connectionEnded(let error, _): failAll(.connection(error))
        // Its operations run nothing on the box: they end with the connection.
        case .connectionClosing: break
        // Never sent: its pump never ends the output; a broken session is abandoned (`end(_:)`).
        case .remoteClosed: break
        }
    }

    /// libssh2 reports a refused channel and a refused subsystem with the same code; only the
    /// first is worth retrying when another channel closes.
    func openWasRefused(_ code: Int32) -> Bool {
        code == LibSSH2Code.channelFailure && unavailableReason == nil
    }

    private func setupFailed(_ error: SSHError) {
        loop.sftp = nil
        if let reason = unavailableReason {
            loop.sftpRefusal = reason
            failAll(.file(.sftpUnavailable(reason: reason)))
        } else {
            failAll(.connection(.channelFailed(operation: "starting SFTP", reason: openFailure.isEmpty ? error.description : openFailure)))
        }
    }

    // MARK: Running

    var isWaitingOnPeer: Bool {
        guard lifecycle.isUnderway else { return false }
        return phase != .running || !queue.isEmpty
    }

    func pump(_ channel: LibSSH2Channel) -> Bool {
        guard let sftp else { return false }
        var progressed = false
        var steps = 0
        loop: while let head = queue.first, brokenBy == nil, steps < stepsPerPump {
            steps += 1
            switch head.step(sftp, on: self) {
            case .blocked: break loop
            case .finished: queue.removeFirst()
            case .parked: parked.append(queue.removeFirst())
            case .yielded: if queue.count > 1 { queue.append(queue.removeFirst()) }
            }
            progressed = true
        }
        if let error = brokenBy { end(error) }
        return progressed
    }

    /// After the session broke (its channel closed under us), fails what waits and closes it;
    /// the next file call opens a new session.
    private func end(_ error: SSHError) {
        brokenBy = nil
        if loop.sftp === self { loop.sftp = nil }
        failAll(.connection(error))
        abandon()
    }

    /// Classifies the failed return code of an SFTP call on `path`.
    func failure(_ code: Int32, operation: String, path: String) -> FileFailure {
        if code == LibSSH2Code.sftpProtocol, let sftp {
            return .file(SFTPStatus.error(sftp.lastStatus, operation: operation, path: path))
        }
        let error = loop.transport.error("SFTP \(operation) of \(path)")
        if LibSSH2Code.isFatal(code) {
            loop.lose(error)
            return .connection(.connectionLost(reason: error.description))
        }
        if brokenBy == nil {
            brokenBy = .channelFailed(operation: "SFTP \(operation) of \(path)", reason: loop.transport.lastError.message)
        }
        return .connection(brokenBy!)
    }

    private func failAll(_ failure: FileFailure) {
        let waiting = queue + parked
        queue = []
        parked = []
        for operation in waiting { operation.fail(failure) }
    }
}
