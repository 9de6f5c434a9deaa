import CLibSSH2
import Foundation

/// A request sent on a fresh channel before it runs: a PTY, a program, a subsystem.
enum ChannelSetupRequest {
    case pty(terminal: String, modes: [UInt8], columns: Int, rows: Int)
    case exec(String)
    case shell
    case subsystem(String)
}

/// The life of one channel on the I/O thread: wait for a slot, open, set up, run, await the
/// remote close, close and free. Subclasses fill in what "run" means.
///
/// libssh2 1.10 can have only one channel open in flight per session, and only one channel
/// waiting for a request reply (see LIBSSH2-NOTES.md), so the loop hands out those two turns.
/// Confined to the connection's I/O thread.
class ChannelOperation {
    enum Phase: Equatable { case queued, opening, settingUp, running, awaitingRemoteClose, closing, done }

    unowned let loop: ConnectionLoop
    private(set) var phase: Phase = .queued
    private(set) var channel: OpaquePointer?
    /// Control operations (killing a process group) may use the channel slot kept for them.
    let isControl: Bool
    /// When the loop should call ``deadlineExpired()``.
    var deadline: ContinuousClock.Instant?
    private var setupRequests: [ChannelSetupRequest]
    private var setupIndex = 0
    /// Close as soon as the channel is open, instead of setting it up.
    private var abandonAfterOpen = false

    init(loop: ConnectionLoop, setupRequests: [ChannelSetupRequest], isControl: Bool = false) {
        self.loop = loop
        self.setupRequests = setupRequests
        self.isControl = isControl
    }

    // MARK: Hooks for subclasses

    /// Moves data while running; returns true when anything happened.
    func pump(_ channel: OpaquePointer) -> Bool { false }
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
        guard let channel, phase == .running || phase == .awaitingRemoteClose else { return false }
        // 1 means data; libssh2 1.10 answers LIBSSH2_ERROR_BUFFER_TOO_SMALL when the session's queue
        // starts with a packet under 5 bytes (the keepalive replies it keeps and never reads).
        return libssh2_poll_channel_read(channel, 0) == 1 || libssh2_poll_channel_read(channel, 1) == 1
    }

    // MARK: Life cycle driven by the loop

    /// Called by the loop when this operation has a slot and the open turn.
    final func beginOpening() { phase = .opening }

    /// Advances the state machine; true when something happened.
    final func advance() -> Bool {
        switch phase {
        case .queued, .done: return false
        case .opening: return stepOpen()
        case .settingUp: return stepSetup()
        case .running:
            guard let channel else { return false }
            return pump(channel)
        case .awaitingRemoteClose: return stepAwaitRemoteClose()
        case .closing: return stepClose()
        }
    }

    /// Ends the channel from this side: no more setup; running channels are closed.
    final func abandon() {
        switch phase {
        case .queued:
            phase = .done
            loop.dequeue(self)
        case .opening:
            abandonAfterOpen = true
        case .settingUp where loop.requestHolder !== self:
            phase = .closing
        case .settingUp:
            setupRequests.removeSubrange((setupIndex + 1)...)
            abandonAfterOpen = true
        case .running, .awaitingRemoteClose:
            phase = .closing
        case .closing, .done:
            break
        }
    }

    /// What one attempt to open the channel gave.
    enum OpenAttempt {
        case opened(OpaquePointer)
        /// Not yet: try again on a later pass.
        case pending
        /// Failed with this libssh2 error code.
        case failed(Int32)
    }

    /// Opens the channel. Subclasses that open it through another libssh2 call (the SFTP
    /// session, whose `libssh2_sftp_init` opens its own channel) override this.
    func attemptOpen() -> OpenAttempt {
        if let opened = libssh2_channel_open_ex(loop.session.raw, "session", 7, 2 * 1024 * 1024, 32768, nil, 0) {
            return .opened(opened)
        }
        let code = loop.session.lastErrno
        return code == LIBSSH2_ERROR_EAGAIN ? .pending : .failed(code)
    }

    /// Whether a failed open means the server refused the channel (its MaxSessions), so that it
    /// is retried once another channel is freed.
    func openWasRefused(_ code: Int32) -> Bool { code == LIBSSH2_ERROR_CHANNEL_FAILURE }

    private func stepOpen() -> Bool {
        let code: Int32
        switch attemptOpen() {
        case .pending:
            return false
        case .opened(let opened):
            channel = opened
            loop.channelsOpened.add(1, ordering: .relaxed)
            loop.openFinished(self)
            phase = abandonAfterOpen ? .closing : .settingUp
            return true
        case .failed(let failure):
            code = failure
        }
        loop.openFinished(self)
        if loop.isFatal(code) {
            loop.lose(loop.session.error("opening a channel"))
            return true
        }
        phase = .done
        if openWasRefused(code), loop.requeueAfterRefusal(self) {
            phase = .queued
            return true
        }
        loop.channelFreed(self)
        setupFailed(.channelFailed(operation: "opening a channel", reason: loop.session.lastError.message))
        return true
    }

    private func stepSetup() -> Bool {
        guard let channel else { return false }
        if setupIndex >= setupRequests.count || abandonAfterOpen && loop.requestHolder !== self {
            if loop.requestHolder === self { loop.requestHolder = nil }
            phase = abandonAfterOpen ? .closing : .running
            return true
        }
        guard loop.requestHolder == nil || loop.requestHolder === self else { return false }
        loop.requestHolder = self
        let rc = send(setupRequests[setupIndex], on: channel)
        if rc == LIBSSH2_ERROR_EAGAIN { return false }
        loop.requestHolder = nil
        if rc != 0 {
            if loop.isFatal(rc) {
                loop.lose(loop.session.error("starting a remote program"))
                return true
            }
            phase = .closing
            setupFailed(.channelFailed(operation: describe(setupRequests[setupIndex]), reason: loop.session.lastError.message))
            return true
        }
        setupIndex += 1
        return true
    }

    private func send(_ request: ChannelSetupRequest, on channel: OpaquePointer) -> Int32 {
        switch request {
        case .pty(let terminal, let modes, let columns, let rows):
            return modes.withUnsafeBufferPointer { modeBytes in
                modeBytes.withMemoryRebound(to: CChar.self) { modeChars in
                    libssh2_channel_request_pty_ex(channel, terminal, UInt32(terminal.utf8.count), modeChars.baseAddress,
                                                   UInt32(modes.count), Int32(columns), Int32(rows), 0, 0)
                }
            }
        case .exec(let command):
            return libssh2_channel_process_startup(channel, "exec", 4, command, UInt32(command.utf8.count))
        case .shell:
            return libssh2_channel_process_startup(channel, "shell", 5, nil, 0)
        case .subsystem(let name):
            return libssh2_channel_process_startup(channel, "subsystem", 9, name, UInt32(name.utf8.count))
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
    final func outputEnded() {
        if phase == .running { phase = .awaitingRemoteClose }
    }

    private func stepAwaitRemoteClose() -> Bool {
        guard let channel else { return false }
        if libssh2_channel_eof(channel) != 0 {
            let rc = libssh2_channel_wait_closed(channel)
            if rc == LIBSSH2_ERROR_EAGAIN { return false }
            if rc != 0, loop.isFatal(rc) {
                loop.lose(loop.session.error("waiting for a command to end"))
                return true
            }
        }
        // exit-status can come after EOF; after the remote CLOSE it has come if it ever will.
        remoteClosed(status: readExitStatus(channel))
        phase = .closing
        return true
    }

    private func readExitStatus(_ channel: OpaquePointer) -> ExitStatus? {
        var signal: UnsafeMutablePointer<CChar>?
        var signalLength = 0
        _ = libssh2_channel_get_exit_signal(channel, &signal, &signalLength, nil, nil, nil, nil)
        if let signal {
            defer { libssh2_free(loop.session.raw, signal) }
            if signalLength > 0 { return .signaled(String(cString: signal)) }
        }
        return .exited(libssh2_channel_get_exit_status(channel))
    }

    private func stepClose() -> Bool {
        guard let channel else {
            phase = .done
            loop.channelFreed(self)
            return true
        }
        // Until the remote process exits this keeps answering EAGAIN: keep polling, never block.
        let rc = libssh2_channel_free(channel)
        if rc == LIBSSH2_ERROR_EAGAIN { return false }
        self.channel = nil
        phase = .done
        loop.channelFreed(self)
        return true
    }

    /// Whether the connection died before this channel sent its first request: whatever it was
    /// to run never started on the box.
    private(set) var lostBeforeStart = false

    /// The connection died under this operation.
    final func failForConnection(_ error: SSHError) {
        lostBeforeStart = phase == .queued || phase == .opening
        phase = .done
        channel = nil  // freed with the session
        connectionFailed(error)
    }
}
