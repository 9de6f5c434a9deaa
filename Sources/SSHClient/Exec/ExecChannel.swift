import CLibSSH2
import Foundation

/// One remote command on the I/O thread: runs it, moves its output and input, and stops all of
/// its processes on timeout or cancellation (``ProcessKill``). Confined to the connection's I/O thread.
final class ExecChannel: ChannelOperation {
    enum Sink {
        /// Keep everything for a ``CommandResult``.
        case collect
        /// Hand chunks to a streaming consumer.
        case stream(OutputPipe)
    }

    let command: String
    private let sink: Sink
    private let completion: (Result<CommandResult, SSHError>) -> Void
    private var stdout: [UInt8] = []
    private var stderr: [UInt8] = []
    private var stdoutEnded = false
    private var stderrEnded = false
    private var pidReader: ProcessIDReader?
    private var input = PendingInput()
    private var stopReason: SSHError?
    private var killStarted = false
    private var finished = false
    private let timeout: Duration?

    /// - Parameter capturePID: prefix the command so it reports its PID, needed to stop it later.
    init(loop: ConnectionLoop, command: String, sink: Sink, timeout: Duration?, capturePID: Bool = true, isControl: Bool = false,
         completion: @escaping (Result<CommandResult, SSHError>) -> Void) {
        self.command = command
        self.sink = sink
        self.completion = completion
        self.timeout = timeout
        pidReader = capturePID ? ProcessIDReader() : nil
        let line = capturePID ? StoppableCommand.wrap(command) : command
        super.init(loop: loop, setupRequests: [.exec(line)], isControl: isControl)
        if let timeout { deadline = .now + timeout }
    }

    override var isWaitingOnPeer: Bool {
        guard super.isWaitingOnPeer else { return false }
        if case .stream(let pipe) = sink, phase == .running { return pipe.hasRoom() }
        return true
    }

    // MARK: Requests from the caller

    func write(_ bytes: [UInt8], completion: @escaping (Result<Void, SSHError>) -> Void) {
        guard !finished, phase != .done, !input.eofRequested else {
            completion(.failure(.channelFailed(operation: "writing to the command", reason: "its input is already closed")))
            return
        }
        input.enqueue(bytes, completion: completion)
    }

    func closeInput(completion: @escaping (Result<Void, SSHError>) -> Void) {
        // A command whose output has ended reads no more input: nothing is left to close (and
        // a request queued now would never be answered).
        if finished || phase == .done || (stdoutEnded && stderrEnded) { return completion(.success(())) }
        input.requestEOF(completion: completion)
    }

    /// Stops the command: kills its remote processes, then fails the caller with `reason`, or with
    /// ``SSHError/stopFailed(command:survivors:)`` when some could not be stopped.
    func stop(_ reason: SSHError) {
        guard stopReason == nil, !finished else { return }
        stopReason = reason
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

    override func deadlineExpired() {
        stop(.timedOut(command: command, after: timeout ?? .zero))
    }

    // MARK: Running

    override func pump(_ channel: OpaquePointer) -> Bool {
        var progressed = input.flush(channel, loop: loop)
        while !(stdoutEnded && stderrEnded) {
            if case .stream(let pipe) = sink, !pipe.hasRoom() { break }
            let outcomeOut = stdoutEnded ? .ended : read(channel, stream: 0)
            let outcomeErr = stderrEnded ? .ended : read(channel, stream: 1)
            if case .failed = outcomeOut { return true }
            if case .failed = outcomeErr { return true }
            if outcomeOut == .ended { stdoutEnded = true }
            if outcomeErr == .ended { stderrEnded = true }
            if outcomeOut == .data || outcomeErr == .data { progressed = true } else { break }
        }
        if stopReason != nil { startKillIfPossible() }
        if stdoutEnded && stderrEnded {
            outputEnded()
            input.failPending(.channelFailed(operation: "writing to the command", reason: "the command ended before reading all its input"))
            return true
        }
        return progressed
    }

    private enum ReadOutcome: Equatable { case data, wouldBlock, ended, failed }

    private func read(_ channel: OpaquePointer, stream: Int32) -> ReadOutcome {
        let rc = loop.scratch.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { libssh2_channel_read_ex(channel, stream, $0.baseAddress, $0.count) }
        }
        if rc > 0 {
            deliver(Array(loop.scratch[0..<rc]), stream: stream)
            return .data
        }
        if rc == 0 { return .ended }
        if rc == Int(LIBSSH2_ERROR_EAGAIN) { return .wouldBlock }
        if loop.isFatal(Int32(rc)) {
            loop.lose(loop.session.error("reading command output"))
        } else {
            abandon()
            finish(.failure(loop.session.error("reading command output")))
        }
        return .failed
    }

    private func deliver(_ bytes: [UInt8], stream: Int32) {
        var bytes = bytes
        if stream == 0, pidReader?.isSearching == true {
            bytes = pidReader!.consume(bytes)
            if bytes.isEmpty { return }
        }
        guard !finished else { return }
        switch sink {
        case .collect:
            if stream == 0 { stdout.append(contentsOf: bytes) } else { stderr.append(contentsOf: bytes) }
        case .stream(let pipe):
            pipe.push(stream == 0 ? .stdout(bytes) : .stderr(bytes))
        }
    }

    override func remoteClosed(status: ExitStatus?) {
        if let reason = stopReason {
            // Exited on its own (or by our signal) before the kill was needed or finished.
            if !killStarted { finish(.failure(reason)) }
            return
        }
        if let leftover = pidReader?.flush(), !leftover.isEmpty {
            pidReader = nil
            deliver(leftover, stream: 0)
        }
        finish(.success(CommandResult(stdout: stdout, stderr: stderr, status: status ?? .exited(-1))))
    }

    override func setupFailed(_ error: SSHError) {
        finish(.failure(stopReason ?? error))
    }

    override func connectionFailed(_ error: SSHError) {
        input.failPending(error)
        finish(.failure(error))
    }

    // MARK: Stopping

    private func startKillIfPossible() {
        guard !killStarted, !finished, let reason = stopReason else { return }
        guard let pid = pidReader?.pid else {
            // The PID line comes first; without it nothing can be signalled. Output that ended
            // before it means the shell is gone; a search given up on (a start-up file printed
            // too much) leaves a command that may run on, which must not be called stopped.
            if stdoutEnded || pidReader == nil {
                abandon()
                finish(.failure(reason))
            } else if pidReader?.isSearching != true {
                abandon()
                finish(.failure(.stopFailed(command: command, survivors: [])))
            }
            return
        }
        killStarted = true
        loop.stopProcesses(of: pid) { [self] outcome in
            abandon()
            finish(.failure(ProcessKill.error(outcome, reason: reason, command: command)))
        }
    }

    private func finish(_ result: Result<CommandResult, SSHError>) {
        guard !finished else { return }
        finished = true
        deadline = nil
        switch (sink, result) {
        case (.stream(let pipe), .success): pipe.finish(.success(()))
        case (.stream(let pipe), .failure(let error)): pipe.finish(.failure(error))
        case (.collect, _): break
        }
        completion(result)
    }
}
