import Foundation

/// One remote command on the I/O thread: runs it, moves its output and input, and stops all of
/// its processes on timeout or cancellation (``ProcessKill``). Confined to the connection's I/O thread.
final class ExecChannel: ChannelOperation {
    let lifecycle: ChannelLifecycle
    enum Sink {
        /// Keep everything for a ``CommandResult``.
        case collect
        /// Hand chunks to a streaming consumer.
        case stream(OutputPipe)
    }

    let command: String
    private let sink: Sink
    /// The caller's answer: its closure while it waits, given once (a remote close after a stop
    /// already answered is dropped), released once given.
    private var reply: Reply
    private var stdout: [UInt8] = []
    private var stderr: [UInt8] = []
    private var output = ChannelOutputReader()
    private var pidReader: ProcessIDReader?
    private var input = PendingInput()
    private var stopping = RemoteProcessStop()
    private let timeout: Duration?

    /// - Parameter capturePID: prefix the command so it reports its PID, needed to stop it later.
    init(
        loop: LoopContext, command: String, sink: Sink, timeout: Duration?, capturePID: Bool = true, isControl: Bool = false,
        completion: @escaping (Result<CommandResult, SSHError>) -> Void
    ) {
        self.command = command
        self.sink = sink
        reply = .pending(completion)
        self.timeout = timeout
        pidReader = capturePID ? ProcessIDReader() : nil
        let line = capturePID ? StoppableCommand.wrap(command) : command
        lifecycle = ChannelLifecycle(loop: loop, setupRequests: [.exec(line)], isControl: isControl)
        if let timeout { deadline = .now + timeout }
    }

    var isWaitingOnPeer: Bool {
        guard lifecycle.isUnderway else { return false }
        if case .stream(let pipe) = sink, phase == .running { return pipe.hasRoom() }
        return true
    }

    // MARK: Requests from the caller

    func write(_ bytes: [UInt8], completion: @escaping (Result<Void, SSHError>) -> Void) {
        guard reply.isPending, phase != .done, !input.eofRequested else {
            completion(.failure(.channelFailed(operation: "writing to the command", reason: "its input is already closed")))
            return
        }
        input.enqueue(bytes, completion: completion)
    }

    func closeInput(completion: @escaping (Result<Void, SSHError>) -> Void) {
        // A command whose output has ended reads no more input: nothing is left to close (and
        // a request queued now would never be answered).
        if !reply.isPending || phase == .done || output.hasEnded { return completion(.success(())) }
        input.requestEOF(completion: completion)
    }

    /// Stops the command: kills its remote processes, then fails the caller with `reason`, or with
    /// ``SSHError/stopFailed(command:survivors:commandLines:)`` (or ``SSHError/stopUnverified(command:reason:)``) when some could not be
    /// stopped.
    func stop(_ reason: SSHError) {
        guard reply.isPending, stopping.request(reason) else { return }
        deadline = nil
        switch phase {
        case .queued, .opening:
            abandon()
            finish(.failure(reason))
        case .settingUp where loop.requestHolder !== self:
            abandon()
            finish(.failure(reason))
        default:
            startKillIfPossible()
        }
    }

    func handle(_ event: ChannelEvent) {
        switch event {
        case .deadlineExpired: stop(.timedOut(command: command, after: timeout ?? .zero))
        case .connectionClosing: if !isControl { stop(.connectionClosed) }
        case .setupFailed(let error): finish(.failure(stopping.reason ?? error))
        case .remoteClosed(let status): remoteClosed(status: status)
        case .connectionEnded(let error, let beforeStart): connectionEnded(error, beforeStart: beforeStart)
        }
    }

    // MARK: Running

    func pump(_ channel: LibSSH2Channel) -> Bool {
        var progressed = input.flush(channel, loop: loop)
        let drained = output.drain(channel, loop: loop, hasRoom: hasRoom) { bytes, stream in deliver(bytes, stream: stream) }
        switch drained {
        case .failed(let code):
            readFailed(code)
            return true
        case .data: progressed = true
        case .nothing: break
        }
        if stopping.reason != nil { startKillIfPossible() }
        if output.hasEnded {
            outputEnded()
            input.failPending(.channelFailed(operation: "writing to the command", reason: "the command ended before reading all its input"))
            return true
        }
        return progressed
    }

    private func hasRoom() -> Bool {
        if case .stream(let pipe) = sink { return pipe.hasRoom() }
        return true
    }

    private func readFailed(_ code: Int32) {
        if LibSSH2Code.isFatal(code) {
            loop.lose(loop.transport.error("reading command output"))
        } else {
            abandon()
            finish(.failure(loop.transport.error("reading command output")))
        }
    }

    private func deliver(_ bytes: [UInt8], stream: LibSSH2Channel.Stream) {
        var bytes = bytes
        if stream == .stdout, pidReader?.isSearching == true {
            bytes = pidReader!.consume(bytes)
            if let pid = pidReader?.pid { onProcessID?(pid) }
            if bytes.isEmpty { return }
        }
        guard reply.isPending else { return }
        switch sink {
        case .collect:
            if stream == .stdout { stdout.append(contentsOf: bytes) } else { stderr.append(contentsOf: bytes) }
        case .stream(let pipe):
            pipe.push(stream == .stdout ? .stdout(bytes) : .stderr(bytes))
        }
    }

    private func remoteClosed(status: ExitStatus?) {
        if let reason = stopping.reason {
            // Exited on its own (or by our signal) before the kill was needed or finished.
            if !stopping.killStarted { finish(.failure(reason)) }
            return
        }
        if let leftover = pidReader?.flush(), !leftover.isEmpty {
            pidReader = nil
            deliver(leftover, stream: .stdout)
        }
        finish(.success(CommandResult(stdout: stdout, stderr: stderr, status: status ?? .exited(-1))))
    }

    /// Told when the connection died before the command was sent, so a caller may start it elsewhere.
    var onLostBeforeStart: (() -> Void)?

    /// Told the PID that the command's wrapper reported (see ``StoppableCommand``).
    var onProcessID: ((Int) -> Void)?

    private func connectionEnded(_ error: SSHError, beforeStart: Bool) {
        if beforeStart { onLostBeforeStart?() }
        let reported = beforeStart || isControl ? error : Self.lostWhileRunning(error, pid: pidReader?.pid)
        input.failPending(reported)
        finish(.failure(reported))
    }

    /// `error` saying that the command may outlive the link: without a terminal nothing on the
    /// box hangs it up, so it may still run, under `pid` when the wrapper reported it.
    static func lostWhileRunning(_ error: SSHError, pid: Int?) -> SSHError {
        guard case .connectionLost(let reason) = error else { return error }
        let whereabouts =
            pid.map { "as PID \($0) (it leads its session: `kill -- -\($0)` on the box stops it all)" } ?? "(its PID was not known yet)"
        return .connectionLost(reason: reason + whereaboutsMark + whereabouts)
    }

    private static let whereaboutsMark = "; the command may still be running on the box "

    /// How a link was lost, without what ``lostWhileRunning(_:pid:)`` added about the command: for
    /// a caller whose command is its own helper (a follower, a reader), not what the user cares about.
    static func linkLossOnly(_ reason: String) -> String {
        reason.range(of: whereaboutsMark).map { String(reason[..<$0.lowerBound]) } ?? reason
    }

    // MARK: Stopping

    private func startKillIfPossible() {
        guard !stopping.killStarted, reply.isPending, let reason = stopping.reason else { return }
        let decision = stopping.decide(
            pid: pidReader?.pid, searchingPID: pidReader?.isSearching == true,
            outputEnded: output.stdoutEnded || pidReader == nil, hangsUpOnClose: false, command: command)
        switch decision {
        case .wait:
            return
        case .giveUp(let error):
            abandon()
            finish(.failure(error))
        case .kill(let pid):
            stopping.killBegan()
            killRemoteProcesses(of: pid, reason: reason, command: command) { [self] _, error in
                stopping.killEnded()
                abandon()
                finish(.failure(error))
            }
        }
    }

    private func finish(_ result: Result<CommandResult, SSHError>) {
        guard case .pending(let completion) = reply else { return }
        reply = .given
        deadline = nil
        switch (sink, result) {
        case (.stream(let pipe), .success): pipe.finish(.success(()))
        case (.stream(let pipe), .failure(let error)): pipe.finish(.failure(error))
        case (.collect, _): break
        }
        completion(result)
    }
}

extension ExecChannel {
    fileprivate enum Reply {
        case pending((Result<CommandResult, SSHError>) -> Void)
        case given

        var isPending: Bool {
            if case .pending = self { return true }
            return false
        }
    }
}
