/// An interactive program on a remote terminal (PTY): a login shell, or a command such as vim.
///
/// Open one with ``SSHConnection/openShell(_:)``. Type with ``send(_:)-([UInt8])``,
/// ``send(_:)-(String)`` and ``send(_:)-(Key)``; read what the terminal shows from ``output``;
/// follow the local window with ``resize(columns:rows:)``. The session runs next to any number
/// of commands on the same connection.
///
/// ```swift
/// let shell = try await connection.openShell()
/// try await shell.send("ls\r")
/// try await shell.send(.up)          // ESC [ A, or ESC O A once a program asked for it
/// for try await chunk in shell.output { print(String(decoding: chunk, as: UTF8.self)) }
/// ```
///
/// ``close()`` ends every process started from the terminal (background jobs and programs that
/// ignore SIGHUP included), which closing an SSH channel alone does not do, and says so when
/// some could not be ended.
public final class InteractiveShell: Sendable {
    /// What the terminal shows, in arrival order: stdout and stderr together, as a PTY merges them.
    public let output: ShellOutput
    /// Held so that the connection stays open while the shell is in use.
    private let connection: SSHConnection
    /// The loop the shell runs on (a reconnecting connection serves new work from a new one).
    private let loop: ConnectionLoop
    private let channel: LoopBound<ShellChannel>
    private let ended: Promise<ExitStatus>
    private let closed: Promise<Void>
    private let observedModes: SharedTerminalModes

    init(connection: SSHConnection, loop: ConnectionLoop, channel: LoopBound<ShellChannel>, endpoints: ShellChannel.Endpoints) {
        self.connection = connection
        self.loop = loop
        self.channel = channel
        output = ShellOutput(pipe: endpoints.pipe, connection: connection)
        ended = endpoints.ended
        closed = endpoints.closed
        observedModes = endpoints.terminalModes
    }

    /// The cursor-key mode the remote last asked for; decides what ``send(_:)-(Key)`` sends for arrows, Home and End.
    public var cursorKeyMode: CursorKeyMode { observedModes.value.cursorKeys }

    /// Writes raw bytes to the terminal, as if typed; returns when the server's window took them.
    public func send(_ bytes: [UInt8]) async throws {
        try await perform { channel, done in channel.write(bytes, completion: done) }
    }

    /// Writes `text` as UTF-8. A newline is not Enter: send `"\r"` or ``Key/enter``.
    public func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    /// Sends a key's bytes, chosen for the cursor-key mode seen in the output up to now.
    ///
    /// - Throws: ``SSHError/invalidArgument(_:)`` for a key without bytes (`.ctrl("1")`, `.function(13)`).
    public func send(_ key: Key) async throws {
        _ = try key.bytes()  // fail an impossible key here, not on the I/O thread
        try await perform { channel, done in channel.write(key, completion: done) }
    }

    /// Changes the remote terminal's size (a window-change request; the program gets SIGWINCH).
    public func resize(columns: Int, rows: Int) async throws {
        guard (1...10_000).contains(columns), (1...10_000).contains(rows) else {
            throw SSHError.invalidArgument("terminal size \(columns)x\(rows) is out of range: give 1 to 10000 columns and rows")
        }
        try await perform { channel, done in channel.resize(columns: columns, rows: rows, completion: done) }
    }

    /// Waits for the program to end and returns its exit status or signal.
    ///
    /// Unread ``output`` beyond the buffer keeps the channel paused, so read it concurrently.
    /// - Throws: ``SSHError/connectionLost(reason:)``, or ``SSHError/channelFailed(operation:reason:)``
    ///   when the session was closed before the server reported a status.
    public func exitStatus() async throws -> ExitStatus {
        try await ended.value()
    }

    /// Ends the session: kills every process of the remote terminal session (SIGHUP and SIGTERM,
    /// SIGKILL after the connection's grace period) and waits until the channel is closed.
    /// ``exitStatus()`` then tells how the program ended. Does nothing once the program has ended.
    ///
    /// - Throws: ``SSHError/stopFailed(command:survivors:commandLines:)`` (or ``SSHError/stopUnverified(command:reason:)``) when
    /// processes of the session still
    ///   run after SIGKILL (or the kill could not be checked); nothing else.
    public func close() async throws {
        let channel = channel
        if loop.submit({ _ in channel.value.close() }) != nil { return }
        try await closed.value()
    }

    private func perform(_ body: @escaping @Sendable (ShellChannel, @escaping (Result<Void, SSHError>) -> Void) -> Void) async throws {
        let promise = Promise<Void>()
        let channel = channel
        if let failure = loop.submit({ _ in body(channel.value) { promise.complete($0) } }) { throw failure }
        try await promise.value()
    }
}

/// The output of a ``InteractiveShell``: byte chunks as the terminal produced them.
///
/// Iterate it once. It ends when the program ends, and throws ``SSHError`` when the connection
/// is lost. Reading slowly pauses this channel only. Cancelling the reading task closes the session.
public struct ShellOutput: AsyncSequence, Sendable {
    public typealias Element = [UInt8]
    let pipe: OutputPipe
    /// Keeps the shell's connection open while its output is read.
    let connection: SSHConnection

    /// Iterates the output chunks.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let pipe: OutputPipe
        let connection: SSHConnection
        /// The next chunk, or nil when the program has ended.
        public mutating func next() async throws -> [UInt8]? {
            switch try await pipe.next() {
            case .stdout(let bytes), .stderr(let bytes): return bytes
            case nil: return nil
            }
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(pipe: pipe, connection: connection) }
}
