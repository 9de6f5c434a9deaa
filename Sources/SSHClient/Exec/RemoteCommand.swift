import Synchronization

/// A command started with ``SSHConnection/stream(_:timeout:bufferSize:)``.
///
/// Iterate ``output`` for its output; ``exitStatus()`` waits for its end. Cancelling the task
/// that reads ``output``, or calling ``cancel()``, stops the remote process group.
public final class RemoteCommand: Sendable {
    /// The command line as given.
    public let command: String
    /// Output chunks in arrival order. Iterate it once.
    public let output: CommandOutput
    private let handle: CommandHandle
    private let completion: Promise<CommandResult>

    init(command: String, output: CommandOutput, handle: CommandHandle, completion: Promise<CommandResult>) {
        self.command = command
        self.output = output
        self.handle = handle
        self.completion = completion
    }

    /// Writes `bytes` to the command's stdin; returns when the server's window took them all.
    public func write(_ bytes: [UInt8]) async throws {
        try await handle.perform { exec, done in exec.write(bytes, completion: done) }
    }

    /// Writes `text` as UTF-8 to the command's stdin.
    public func write(_ text: String) async throws {
        try await write(Array(text.utf8))
    }

    /// Sends EOF on stdin, after everything written before.
    public func closeInput() async throws {
        try await handle.perform { exec, done in exec.closeInput(completion: done) }
    }

    /// Waits for the command to end and returns its exit status or signal.
    ///
    /// Output not yet read from ``output`` keeps the command's channel paused, so read it first
    /// (or concurrently) when the command writes more than the buffer holds.
    public func exitStatus() async throws -> ExitStatus {
        try await completion.value().status
    }

    /// Stops the command: kills its remote process group; ``output`` then throws ``SSHError/cancelled(command:)``.
    public func cancel() {
        handle.stop(.cancelled(command: command))
    }
}

/// The caller's side of an ``ExecChannel``: forwards requests to the I/O thread.
final class CommandHandle: Sendable {
    /// Held so that the connection stays open while its command's handle is in use.
    private let connection: SSHConnection
    private var loop: ConnectionLoop { connection.loop }
    private let exec = Mutex<LoopBound<ExecChannel>?>(nil)

    init(connection: SSHConnection) {
        self.connection = connection
    }

    /// Called on the I/O thread when the channel operation exists.
    func attach(_ channel: ExecChannel, loop: ConnectionLoop) {
        exec.withLock { $0 = LoopBound(channel, loop: loop) }
    }

    /// Work is queued in order, so by the time it runs on the I/O thread the channel is attached.
    func stop(_ reason: SSHError) {
        loop.submit { _ in self.exec.withLock { $0 }?.value.stop(reason) }
    }

    func perform(_ body: @escaping @Sendable (ExecChannel, @escaping (Result<Void, SSHError>) -> Void) -> Void) async throws {
        let promise = Promise<Void>()
        // Read the channel on the I/O thread: the closure that attaches it was submitted first.
        let failure = loop.submit { [self] _ in
            guard let channel = exec.withLock({ $0 })?.value else {
                return promise.complete(.failure(.channelFailed(operation: "using the command", reason: "it has not started")))
            }
            body(channel) { promise.complete($0) }
        }
        if let failure { throw failure }
        try await promise.value()
    }
}
