import Foundation

/// One SSH connection to a remote box, running any number of commands at once.
///
/// A dedicated thread owns the socket and the libssh2 session and multiplexes every channel
/// with `poll`; the methods here are safe to call from any task. Commands beyond the server's
/// channel limit wait their turn. A timeout or a cancelled task stops the remote process group
/// and leaves the connection usable.
///
/// ```swift
/// let connection = try await SSHConnection.connect(.init(
///     host: "box.example.com", user: "me",
///     authentication: [.privateKey(path: "/home/me/.ssh/id_ed25519")]))
/// let result = try await connection.run("uname -a", timeout: .seconds(10))
/// print(result.stdoutText)
/// ```
public final class SSHConnection: Sendable {
    let loop: ConnectionLoop

    /// The settings the connection was made with.
    public var configuration: SSHConnectionConfiguration { loop.configuration }

    private init(loop: ConnectionLoop) {
        self.loop = loop
    }

    /// A connection nobody holds any more closes itself: its thread ends and its socket is closed.
    /// Running commands, shells and readers hold their connection, so it outlives them.
    deinit {
        loop.requestClose()
    }

    /// Connects, checks the host key, and authenticates.
    ///
    /// - Throws: ``SSHError`` naming what failed: the address, the host key, or the credentials.
    public static func connect(_ configuration: SSHConnectionConfiguration) async throws -> SSHConnection {
        guard configuration.maxChannels >= 1 else { throw SSHError.invalidArgument("maxChannels must be at least 1") }
        return SSHConnection(loop: try await ConnectionLoop.start(configuration))
    }

    /// How many channels the server has opened on this connection so far: one per command, plus
    /// one for each remote process group stopped. A statistic for tests and diagnostics.
    public var channelsOpened: Int { loop.channelsOpened.load(ordering: .relaxed) }

    /// Counters of the connection's I/O loop (polls, stalls, channels); cheap to read at any time.
    public var statistics: ConnectionStatistics {
        ConnectionStatistics(polls: loop.counters.polls.load(ordering: .relaxed),
                             stalledPolls: loop.counters.stalledPolls.load(ordering: .relaxed),
                             channelsOpened: channelsOpened)
    }

    /// Whether the connection has been closed or lost.
    public var isClosed: Bool { loop.isClosed }

    /// Runs `command` through the remote login shell and collects all of its output.
    ///
    /// - Parameters:
    ///   - command: A shell command line. Build it with ``ShellQuoting`` when it holds untrusted words.
    ///   - input: Bytes written to the command's stdin, which is then closed. Without it, stdin is closed at once.
    ///   - timeout: How long the command may run; then its process group is killed.
    /// - Returns: stdout, stderr, and the exit status or signal.
    /// - Throws: ``SSHError/timedOut(command:after:)``, ``SSHError/cancelled(command:)`` when the task is
    ///   cancelled, ``SSHError/connectionLost(reason:)``, or a channel error.
    public func run(_ command: String, input: [UInt8] = [], timeout: Duration? = nil) async throws -> CommandResult {
        let promise = Promise<CommandResult>()
        let handle = CommandHandle(connection: self)
        try submitOrThrow { loop in
            let exec = ExecChannel(loop: loop, command: command, sink: .collect, timeout: timeout) { promise.complete($0) }
            if !input.isEmpty { exec.write(input) { _ in } }
            exec.closeInput { _ in }
            handle.attach(exec, loop: loop)
            loop.enqueue(exec)
        }
        return try await withTaskCancellationHandler {
            try await promise.value()
        } onCancel: {
            handle.stop(.cancelled(command: command))
        }
    }

    /// Starts `command` and returns at once with a handle that streams its output as it arrives.
    ///
    /// Read ``RemoteCommand/output`` to get stdout and stderr chunks; reading slowly pauses this
    /// command only. Write to its stdin with ``RemoteCommand/write(_:)-([UInt8])`` and close it
    /// with ``RemoteCommand/closeInput()``.
    ///
    /// - Parameters:
    ///   - command: A shell command line, run by the remote login shell.
    ///   - timeout: How long the command may run; then its process group is killed.
    ///   - bufferSize: How many unread output bytes may wait before the channel pauses.
    public func stream(_ command: String, timeout: Duration? = nil, bufferSize: Int = 1 << 20) throws -> RemoteCommand {
        let promise = Promise<CommandResult>()
        let handle = CommandHandle(connection: self)
        // Weak: the loop holds the pipe while the command runs, and must not keep the connection alive.
        let pipe = OutputPipe(capacity: max(1, bufferSize), resumeProducer: { [loop] in loop.wake() },
                              cancelCommand: { [weak handle] in handle?.stop(.cancelled(command: command)) })
        try submitOrThrow { loop in
            let exec = ExecChannel(loop: loop, command: command, sink: .stream(pipe), timeout: timeout) { promise.complete($0) }
            handle.attach(exec, loop: loop)
            loop.enqueue(exec)
        }
        return RemoteCommand(command: command, output: CommandOutput(pipe: pipe, handle: handle), handle: handle, completion: promise)
    }

    /// Closes the connection. Running commands fail with ``SSHError/connectionClosed``.
    public func close() async {
        await loop.close()
    }

    private func submitOrThrow(_ work: @escaping @Sendable (ConnectionLoop) -> Void) throws(SSHError) {
        if let error = loop.submit(work) { throw error }
    }
}

extension SSHConnection {
    /// The version of the libssh2 library in use, e.g. "1.10.0".
    public static var libssh2Version: String { libSSH2Version }
}
