/// A PTY channel on the I/O thread: sets up the terminal and program, moves keystrokes and
/// output, applies window changes, and on close ends the whole terminal session.
/// Confined to the connection's I/O thread; callers hold its ``Endpoints``.
final class ShellChannel: ChannelOperation {
    let lifecycle: ChannelLifecycle
    /// What callers on other threads hold of a shell channel: made before it, safe anywhere.
    struct Endpoints: Sendable {
        /// The terminal's output.
        let pipe: OutputPipe
        /// The terminal modes last seen in the output.
        let terminalModes = SharedTerminalModes()
        let started = Promise<Void>()
        let ended = Promise<ExitStatus>()
        /// Settles when the program has ended and, after ``close()``, the kill has finished: fails
        /// with ``SSHError/stopFailed(command:survivors:commandLines:)`` (or ``SSHError/stopUnverified(command:reason:)``)
        /// when processes of the session survived it.
        let closed = Promise<Void>()
    }

    private let endpoints: Endpoints
    private var terminalModes: SharedTerminalModes { endpoints.terminalModes }
    private var started: Promise<Void> { endpoints.started }
    private var ended: Promise<ExitStatus> { endpoints.ended }
    private var closed: Promise<Void> { endpoints.closed }
    private var pipe: OutputPipe { endpoints.pipe }

    private var pidReader = ProcessIDReader()
    /// The terminal's echo of the answer to the PID line (``StoppableCommand/script``),
    /// still to be taken off the output.
    private var acknowledgementEcho: ArraySlice<UInt8> = []
    private var tracker = TerminalModeTracker()
    private var input = PendingInput()
    private var pendingResize: (columns: Int, rows: Int, completions: [(Result<Void, SSHError>) -> Void])?
    private var output = ChannelOutputReader()
    private var stopping = RemoteProcessStop()
    private var stopFailure: SSHError?
    private let commandLine: String
    /// Whether the caller has its answer: ``Endpoints/ended`` is the one record of it.
    private var hasEnded: Bool { ended.isCompleted }

    static let closedError = SSHError.channelFailed(operation: "using the shell", reason: "the shell was closed")

    init(loop: LoopContext, configuration: ShellConfiguration, endpoints: Endpoints) {
        self.endpoints = endpoints
        commandLine = configuration.command ?? ShellConfiguration.loginShellCommand
        lifecycle = ChannelLifecycle(
            loop: loop,
            setupRequests: [
                .pty(
                    terminal: configuration.terminalType, modes: configuration.modes.encoded,
                    columns: configuration.columns, rows: configuration.rows),
                .exec(configuration.commandLine),
            ])
    }

    var isWaitingOnPeer: Bool {
        guard lifecycle.isUnderway else { return false }
        return phase != .running || pipe.hasRoom()
    }

    // MARK: Requests from the caller

    func write(_ bytes: [UInt8], completion: @escaping (Result<Void, SSHError>) -> Void) {
        guard !hasEnded, stopping.reason == nil else { return completion(.failure(endedError("writing to the shell"))) }
        input.enqueue(bytes, completion: completion)
    }

    /// Encodes `key` for the cursor-key mode seen so far in the output, then writes it.
    func write(_ key: Key, completion: @escaping (Result<Void, SSHError>) -> Void) {
        do {
            write(try key.bytes(cursorKeys: tracker.mode), completion: completion)
        } catch {
            completion(.failure(error))
        }
    }

    func resize(columns: Int, rows: Int, completion: @escaping (Result<Void, SSHError>) -> Void) {
        guard !hasEnded, stopping.reason == nil else { return completion(.failure(endedError("resizing the terminal"))) }
        let waiting = pendingResize?.completions ?? []
        pendingResize = (columns, rows, waiting + [completion])
    }

    /// Ends the terminal session: kills every process in it (``ProcessKill``), then waits for the channel to close.
    func close() {
        guard !hasEnded, stopping.request(Self.closedError) else { return }
        input.failPending(Self.closedError)
        failPendingResize(Self.closedError)
        let channelRuns = phase == .running || phase == .awaitingRemoteClose
        let decision = stopping.decide(
            pid: channelRuns ? pidReader.pid : nil, searchingPID: pidReader.isSearching,
            outputEnded: output.stdoutEnded, hangsUpOnClose: true, command: commandLine)
        guard case .kill(let leaderPID) = decision else {
            abandon()
            return finish(.failure(Self.closedError))
        }
        stopping.killBegan()
        killRemoteProcesses(of: leaderPID, reason: Self.closedError, command: commandLine) { [self] outcome, error in
            stopping.killEnded()
            if outcome != .stopped { stopFailure = error }
            // The remote close normally arrives with the last process; do not wait forever for it.
            if hasEnded { completeClosed() } else { deadline = .now + .seconds(2) }
        }
    }

    func handle(_ event: ChannelEvent) {
        switch event {
        case .deadlineExpired:  // the remote close did not follow the kill
            abandon()
            finish(.failure(Self.closedError))
        case .connectionClosing: close()
        case .setupFailed(let error): finish(.failure(stopping.reason != nil ? Self.closedError : error))
        case .remoteClosed(let status): remoteClosed(status: status)
        case .connectionEnded(let error, _): finish(.failure(error))
        }
    }

    private func endedError(_ operation: String) -> SSHError {
        stopping.reason != nil ? Self.closedError : .channelFailed(operation: operation, reason: "the shell has ended")
    }

    // MARK: Running

    var diagnostics: String {
        let ended = "\(output.stdoutEnded)/\(output.stderrEnded)"
        return "ShellChannel \(phase) room=\(pipe.hasRoomPeek) searchingPID=\(pidReader.isSearching) ended=\(ended)"
    }

    func pump(_ channel: LibSSH2Channel) -> Bool {
        var progressed = false
        if !started.isCompleted {
            started.complete(.success(()))
            progressed = true
        }
        if applyResize(channel) { progressed = true }
        // Keystrokes wait for the PID line, so their echo cannot mix with it.
        if !pidReader.isSearching, input.flush(channel, loop: loop) { progressed = true }
        // A PTY merges stderr into stdout; stream 1 is drained all the same so it reaches its end.
        switch output.drain(channel, loop: loop, hasRoom: pipe.hasRoom, deliver: { bytes, _ in deliver(bytes) }) {
        case .failed(let code):
            readFailed(code)
            return true
        case .data: progressed = true
        case .nothing: break
        }
        if output.hasEnded {
            outputEnded()
            input.failPending(endedError("writing to the shell"))
            failPendingResize(endedError("resizing the terminal"))
            return true
        }
        return progressed
    }

    private func applyResize(_ channel: LibSSH2Channel) -> Bool {
        guard let size = pendingResize else { return false }
        // window-change wants no reply (libssh2 sends it and returns), so it needs no request turn.
        let sent = channel.resizeTerminal(columns: size.columns, rows: size.rows)
        if case .wouldBlock = sent { return false }
        if case .failed(let rc) = sent, LibSSH2Code.isFatal(rc) {
            // Left to the loss, which fails it as connection lost (as the shell's input).
            loop.lose(loop.transport.error("resizing the terminal"))
            return true
        }
        pendingResize = nil
        var result: Result<Void, SSHError> = .success(())
        if case .failed = sent { result = .failure(loop.transport.error("resizing the terminal")) }
        for completion in size.completions { completion(result) }
        return true
    }

    private func failPendingResize(_ error: SSHError) {
        let waiting = pendingResize?.completions ?? []
        pendingResize = nil
        for completion in waiting { completion(.failure(error)) }
    }

    private func readFailed(_ code: Int32) {
        let error = loop.transport.error("reading shell output")
        if LibSSH2Code.isFatal(code) {
            loop.lose(error)
        } else {
            abandon()
            finish(.failure(error))
        }
    }

    private func deliver(_ bytes: [UInt8]) {
        let wasSearching = pidReader.isSearching
        var visible = wasSearching ? pidReader.consume(bytes) : bytes
        // The echo comes in a later chunk than the PID line: the lines before it are shown as they are.
        if !acknowledgementEcho.isEmpty { visible = removingAcknowledgementEcho(from: visible) }
        // Only a found line has a wrapper waiting (a search given up after 64 KiB has none).
        if wasSearching, pidReader.pid != nil { acknowledgePIDLine() }
        guard !visible.isEmpty, !hasEnded else { return }
        let before = tracker.modes
        tracker.scan(visible)
        if tracker.modes != before { terminalModes.value = tracker.modes }
        pipe.push(.stdout(visible))
    }

    /// Lets the program start (``StoppableCommand/script``): a newline ahead of any keys
    /// typed meanwhile, whose echo (CR LF, or LF without ONLCR) is not shown.
    private func acknowledgePIDLine() {
        input.enqueueFirst([UInt8(ascii: "\n")]) { _ in }
        acknowledgementEcho = [UInt8(ascii: "\r"), UInt8(ascii: "\n")]
    }

    /// `bytes` without the part of the acknowledgement's echo they start with; the echo comes
    /// before anything the program prints, or not at all (ECHO off).
    private func removingAcknowledgementEcho(from bytes: [UInt8]) -> [UInt8] {
        var rest = bytes[...]
        while let expected = acknowledgementEcho.first, let next = rest.first {
            if next == expected {
                rest.removeFirst()
                acknowledgementEcho.removeFirst()
            } else if expected == UInt8(ascii: "\r"), next == UInt8(ascii: "\n") {
                acknowledgementEcho.removeFirst()
            } else {
                acknowledgementEcho = []
            }
        }
        return Array(rest)
    }

    // MARK: Ending

    private func remoteClosed(status: ExitStatus?) {
        let leftover = pidReader.flush()
        if !leftover.isEmpty { deliver(leftover) }
        finish(.success(status ?? .exited(-1)))
    }

    private func finish(_ result: Result<ExitStatus, SSHError>) {
        guard !hasEnded else { return }
        deadline = nil
        input.failPending(result.failure ?? endedError("writing to the shell"))
        failPendingResize(result.failure ?? endedError("resizing the terminal"))
        started.complete(result.map { _ in () })
        pipe.finish(result.map { _ in () })
        ended.complete(result)
        if !stopping.killRunning { completeClosed() }
    }

    private func completeClosed() {
        closed.complete(stopFailure.map { .failure($0) } ?? .success(()))
    }
}

extension Result {
    /// The error of a failure, nil for a success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
