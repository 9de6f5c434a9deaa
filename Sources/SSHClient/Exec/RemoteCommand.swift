import Synchronization

/// A command started with ``SSHConnection/stream(_:timeout:bufferSize:)``.
///
/// Iterate ``output`` for its output; ``exitStatus()`` waits for its end. Cancelling the task
/// that reads ``output``, or calling ``cancel()``, stops all of its remote processes.
public final class RemoteCommand: Sendable {
    /// The command line as given.
    public let command: String
    /// Output chunks in arrival order. Iterate it once.
    public let output: CommandOutput
    private let handle: any CommandControl
    private let completion: Promise<CommandResult>
    private let reportedPID: ReportedPID

    init(
        command: String, output: CommandOutput, handle: any CommandControl, completion: Promise<CommandResult>,
        reportedPID: ReportedPID
    ) {
        self.command = command
        self.output = output
        self.handle = handle
        self.completion = completion
        self.reportedPID = reportedPID
    }

    /// The PID on the box of the shell that runs the command, once it reported it; it leads the
    /// session that holds the command's processes. Kept after a lost link, so that the command
    /// can be stopped over another connection (``SSHConnection/stopRemoteProcesses(of:command:)``).
    public var processID: Int? { reportedPID.value }

    /// Writes `bytes` to the command's stdin; returns when the server's window took them all.
    public func write(_ bytes: [UInt8]) async throws {
        try await handle.write(bytes)
    }

    /// Writes `text` as UTF-8 to the command's stdin.
    public func write(_ text: String) async throws {
        try await write(Array(text.utf8))
    }

    /// Sends EOF on stdin, after everything written before.
    public func closeInput() async throws {
        try await handle.closeInput()
    }

    /// Waits for the command to end and returns its exit status or signal.
    ///
    /// Output not yet read from ``output`` keeps the command's channel paused, so read it first
    /// (or concurrently) when the command writes more than the buffer holds.
    public func exitStatus() async throws -> ExitStatus {
        try await completion.value().status
    }

    /// Stops the command: kills all of its remote processes; ``output`` then throws
    /// ``SSHError/cancelled(command:)``, or ``SSHError/stopFailed(command:survivors:commandLines:)`` (or
    /// ``SSHError/stopUnverified(command:reason:)``) when some survived.
    public func cancel() {
        handle.stop(.cancelled(command: command))
    }
}

/// The caller's side of an ``ExecChannel``: starts it on a loop and forwards requests to that loop.
///
/// A command may start later than its handle exists (over the next link of a reconnecting
/// connection); requests wait for the start, and a stop before it fails the caller at once.
final class CommandHandle: CommandControl {
    /// Held so that the connection stays open while its command's handle is in use.
    private let connection: SSHConnection
    private let failBeforeStart: @Sendable (SSHError) -> Void
    private struct State {
        var exec: LoopBound<ExecChannel>?
        var pendingStop: SSHError?
    }
    private let state = Mutex(State())
    /// The loop the command was handed to.
    private let started = Promise<ConnectionLoop>()

    /// - Parameter failBeforeStart: Reports a stop or failure that came before the command started.
    init(connection: SSHConnection, failBeforeStart: @escaping @Sendable (SSHError) -> Void) {
        self.connection = connection
        self.failBeforeStart = failBeforeStart
    }

    /// Hands the command to `loop`, where `make` creates its channel; throws when the loop has ended.
    func start(on loop: ConnectionLoop, _ make: @escaping @Sendable (LoopContext) -> ExecChannel) throws(SSHError) {
        let failure = loop.submit { [self] loop in
            let exec = make(loop)
            let stop = state.withLock { state -> SSHError? in
                state.exec = LoopBound(exec, loop: loop)
                return state.pendingStop
            }
            loop.enqueue(exec)
            if let stop { exec.stop(stop) }
        }
        if let failure { throw failure }
        started.complete(.success(loop))
    }

    /// The command could not be started at all.
    func failToStart(_ error: SSHError) {
        started.complete(.failure(error))
        failBeforeStart(error)
    }

    func write(_ bytes: [UInt8]) async throws {
        try await perform { exec, done in exec.write(bytes, completion: done) }
    }

    func closeInput() async throws {
        try await perform { exec, done in exec.closeInput(completion: done) }
    }

    /// Wakes the loop the command runs on (its reader made room).
    func wakeLoop() {
        if let loop = startedLoop { loop.wake() }
    }

    private var startedLoop: ConnectionLoop? {
        guard started.isCompleted else { return nil }
        return try? started.peek()
    }

    /// Stops the command on its loop, or — not started yet — fails the caller now and keeps it from running.
    func stop(_ reason: SSHError) {
        let exec = state.withLock { state -> LoopBound<ExecChannel>? in
            if state.exec == nil, state.pendingStop == nil { state.pendingStop = reason }
            return state.exec
        }
        if let exec, let loop = startedLoop {
            loop.submit { _ in exec.value.stop(reason) }
        } else {
            failBeforeStart(reason)
        }
    }

    private func perform(_ body: @escaping @Sendable (ExecChannel, @escaping (Result<Void, SSHError>) -> Void) -> Void) async throws {
        let loop = try await started.value()
        let promise = Promise<Void>()
        // Read the channel on the I/O thread: the closure that attaches it was submitted first.
        let failure = loop.submit { [self] _ in
            guard let channel = state.withLock({ $0.exec })?.value else {
                return promise.complete(.failure(.channelFailed(operation: "using the command", reason: "it has not started")))
            }
            body(channel) { promise.complete($0) }
        }
        if let failure { throw failure }
        try await promise.value()
    }
}

/// The PID a command's wrapper reported, written on the loop thread, read by the caller.
final class ReportedPID: Sendable {
    private let pid = Mutex<Int?>(nil)

    var value: Int? { pid.withLock { $0 } }

    func record(_ value: Int) { pid.withLock { $0 = value } }
}
