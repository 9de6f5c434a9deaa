import Foundation
import Synchronization

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
    let link: ConnectionLink

    /// The loop serving the connection now (while reconnecting, the one that was lost).
    var loop: ConnectionLoop { link.current }

    /// The settings the connection was made with.
    public var configuration: SSHConnectionConfiguration { link.configuration }

    private init(link: ConnectionLink) {
        self.link = link
    }

    /// A connection nobody holds any more closes itself: its thread ends and its socket is closed.
    /// Running commands, shells and readers hold their connection, so it outlives them.
    deinit {
        link.requestClose()
    }

    /// Connects, checks the host key, and authenticates.
    ///
    /// - Throws: ``SSHError`` naming what failed: the address, the host key, or the credentials.
    public static func connect(_ configuration: SSHConnectionConfiguration) async throws -> SSHConnection {
        guard configuration.maxChannels >= 1 else { throw SSHError.invalidArgument("maxChannels must be at least 1") }
        return SSHConnection(link: ConnectionLink(configuration: configuration, loop: try await ConnectionLoop.start(configuration)))
    }

    /// Where the connection stands now.
    public var state: ConnectionState { link.connectionState }

    /// The connection's state now, then every change (lost, reconnecting with attempt and delay,
    /// connected again, closed with its reason). The sequence ends after ``ConnectionState/closed(reason:)``.
    ///
    /// ```swift
    /// for await state in connection.states() { statusLine.text = state.description }
    /// ```
    public func states() -> AsyncStream<ConnectionState> { link.states() }

    /// The identification string the server sent (RFC 4253 4.2), e.g.
    /// `SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3` or `SSH-2.0-dropbear_2022.83`: what software
    /// serves the box (of the session serving it now, after a reconnect).
    public var serverIdentification: String { link.current.serverIdentification ?? "" }

    /// Where each channel of the connection stands, and who holds the loop's turns, separated by
    /// `; ` (see `LoopContext`): for a test that waited too long to say what the connection was
    /// doing. Empty once the connection has ended.
    package func channelDiagnostics() async -> String {
        let promise = Promise<String>()
        if loop.submit({ context in promise.complete(.success(context.channelDiagnostics.joined(separator: "; "))) }) != nil {
            return ""
        }
        return (try? await promise.value()) ?? ""
    }

    /// Whether the server ends the whole connection when a command exits while another channel
    /// has not started its command yet: dropbear 2022.82 to 2024.85 (mkj/dropbear#321; Debian
    /// bookworm ships 2022.83; docs/servers.md). Against such a server, run commands one after another.
    public var serverAbortsOnOverlappingCommands: Bool {
        Self.abortsOnOverlappingCommands(identification: serverIdentification)
    }

    /// ``serverAbortsOnOverlappingCommands`` for an identification string.
    static func abortsOnOverlappingCommands(identification: String) -> Bool {
        guard let range = identification.range(of: "dropbear_") else { return false }
        let version = identification[range.upperBound...].prefix { $0.isNumber || $0 == "." }.split(separator: ".").compactMap { Int($0) }
        guard version.count >= 2 else { return false }
        let number = version[0] * 100 + version[1]
        return (2022_82...2024_85).contains(number)
    }

    /// How many channels the server has opened on this connection so far: one per command, plus
    /// one for each remote process group stopped. A statistic for tests and diagnostics.
    public var channelsOpened: Int { statistics.channelsOpened }

    /// Counters of the connection's I/O loops (polls, stalls, channels) over its whole life,
    /// reconnects included; cheap to read at any time.
    public var statistics: ConnectionStatistics { link.statistics }

    /// Whether the connection has ended for good: closed, or lost with no reconnect to come.
    public var isClosed: Bool {
        if case .closed = link.connectionState { return true }
        return loop.isClosed && !link.reconnects
    }

    /// Runs `command` through the remote login shell and collects all of its output.
    ///
    /// - Parameters:
    ///   - command: A shell command line. Build it with ``ShellQuoting`` when it holds untrusted words.
    ///   - input: Bytes written to the command's stdin, which is then closed. Without it, stdin is closed at once.
    ///   - timeout: How long the command may run; then its process group is killed.
    ///   - idempotent: Whether running the command twice does no harm. With a
    ///     ``SSHConnectionConfiguration/reconnect`` policy, such a command that lost its connection
    ///     runs again once the connection is back; any other fails with ``SSHError/connectionLost(reason:)``.
    /// - Returns: stdout, stderr, and the exit status or signal.
    /// - Throws: ``SSHError/timedOut(command:after:)``, ``SSHError/cancelled(command:)`` when the task is
    ///   cancelled, ``SSHError/connectionLost(reason:)``, or a channel error.
    public func run(
        _ command: String, input: [UInt8] = [], timeout: Duration? = nil, idempotent: Bool = false
    ) async throws -> CommandResult {
        try await retryingAfterReconnect(idempotent: idempotent) {
            try await self.runOnce(command, input: input, timeout: timeout)
        }
    }

    /// The longest command line ``run(_:input:timeout:idempotent:)`` and ``stream(_:timeout:bufferSize:)``
    /// send, in UTF-8 bytes with rws's wrapper (a few hundred bytes): libssh2 sends no packet over
    /// 35,000 bytes. Longer ones fail with ``SSHError/commandTooLong(length:limit:)`` before
    /// anything is sent. Servers take less or more: dropbear ends the whole connection for a
    /// command over 9,000 bytes, OpenSSH takes what Linux allows one argument (128 KiB). rws's own
    /// scripts stay under 9,000 bytes and send long lists on stdin.
    public static let maximumCommandLength = 34_000

    private func runOnce(_ command: String, input: [UInt8], timeout: Duration?) async throws -> CommandResult {
        try StoppableCommand.checkLength(command)
        let promise = Promise<CommandResult>()
        let handle = CommandHandle(connection: self) { promise.complete(.failure($0)) }
        let neverSent = Atomic<Bool>(false)
        let loop = try await link.usableLoop()
        try handle.start(on: loop) { loop in
            let exec = ExecChannel(loop: loop, command: command, sink: .collect, timeout: timeout) { promise.complete($0) }
            exec.onLostBeforeStart = { neverSent.store(true, ordering: .relaxed) }
            if !input.isEmpty { exec.write(input) { _ in } }
            exec.closeInput { _ in }
            return exec
        }
        do {
            return try await withTaskCancellationHandler {
                try await promise.value()
            } onCancel: {
                handle.stop(.cancelled(command: command))
            }
        } catch SSHError.connectionLost(let reason) where neverSent.load(ordering: .relaxed) {
            throw LostBeforeStart(reason: reason)
        }
    }

    /// A command whose connection was lost before it was sent: running it over the next link
    /// is its first run, not a second one.
    private struct LostBeforeStart: Error {
        let reason: String
    }

    /// Runs `body`; when it failed with `connectionLost`, the work was idempotent and the
    /// connection reconnects, runs it again over the next link (a few times at most).
    func retryingAfterReconnect<T>(idempotent: Bool, _ body: () async throws -> T) async throws -> T {
        var attempts = 0
        while true {
            do {
                return try await body()
            } catch SSHError.connectionLost(let reason) where idempotent && link.reconnects && attempts < 3 {
                attempts += 1
                configuration.logger.info("retrying after reconnect", metadata: ["reason": "\(reason)"])
            } catch let lost as LostBeforeStart {
                guard link.reconnects, attempts < 3 else { throw SSHError.connectionLost(reason: lost.reason) }
                attempts += 1
            }
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
    ///
    /// While the connection is reconnecting the command starts once it is back (it fails with
    /// ``SSHError/connectionLost(reason:)`` if that takes longer than the policy's wait).
    public func stream(_ command: String, timeout: Duration? = nil, bufferSize: Int = 1 << 20) throws -> RemoteCommand {
        try StoppableCommand.checkLength(command)
        let promise = Promise<CommandResult>()
        let pipeBox = Mutex<OutputPipe?>(nil)
        let handle = CommandHandle(connection: self) { error in
            promise.complete(.failure(error))
            pipeBox.withLock { $0 }?.finish(.failure(error))
        }
        // Weak: the loop holds the pipe while the command runs, and must not keep the connection alive.
        let pipe = OutputPipe(
            capacity: max(1, bufferSize), resumeProducer: { [weak handle] in handle?.wakeLoop() },
            cancelCommand: { [weak handle] in handle?.stop(.cancelled(command: command)) })
        pipeBox.withLock { $0 = pipe }
        let reportedPID = ReportedPID()
        let makeExec: @Sendable (LoopContext) -> ExecChannel = { loop in
            let exec = ExecChannel(loop: loop, command: command, sink: .stream(pipe), timeout: timeout) { promise.complete($0) }
            exec.onProcessID = { reportedPID.record($0) }
            return exec
        }
        do {
            try handle.start(on: loop, makeExec)
        } catch {
            // Lost (now or just before): start over the next link, or fail when it does not come.
            guard link.reconnects else { throw error }
            configuration.logger.debug("command waits for a reconnect", metadata: ["error": "\(error)"])
            Task { [link] in
                do { try handle.start(on: try await link.usableLoop(), makeExec) } catch {
                    handle.failToStart(error as? SSHError ?? .connectionClosed)
                }
            }
        }
        return RemoteCommand(
            command: command, output: CommandOutput(pipe: pipe, handle: handle), handle: handle, completion: promise,
            reportedPID: reportedPID)
    }

    /// Stops every process of a command that ran over another connection, from the PID it
    /// reported (``RemoteCommand/processID``): the same stop as a timeout's (hang up, terminate,
    /// then freeze and kill in rounds), checked in the box's process table.
    ///
    /// - Throws: ``SSHError/stopFailed(command:survivors:commandLines:)`` when processes survived,
    ///   ``SSHError/stopUnverified(command:reason:)`` when the table could not be read; the
    ///   connection's error when the stop could not run to its end (the link was lost meanwhile):
    ///   the processes may then still run, and another connection may try again.
    public func stopRemoteProcesses(of pid: Int, command: String) async throws {
        let outcome = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ProcessKill.Outcome, Error>) in
            let failure = loop.submit { loop in
                loop.stopProcesses(of: pid) { continuation.resume(returning: $0) }
            }
            if let failure { continuation.resume(throwing: failure) }
        }
        if case .notRun(let error) = outcome { throw error }
        if outcome != .stopped { throw ProcessKill.error(outcome, reason: .connectionClosed, command: command, pid: pid) }
    }

    /// Closes the connection. Running commands are stopped on the box first (their processes are
    /// killed as on a timeout, shells are ended) and fail with ``SSHError/connectionClosed``;
    /// returns once that is done and the connection is torn down.
    ///
    /// The wait for those stops is bounded: the termination grace period and 3 s more. A stop
    /// still running then (a box too busy to run the kill script in time) is returned, by PID,
    /// so that it can be said: its processes may still run on the box.
    ///
    /// - Returns: The stops the close stopped waiting for; empty when every stop finished.
    @discardableResult
    public func close() async -> [UnfinishedStop] {
        await link.close()
    }
}

extension SSHConnection {
    /// The version of the libssh2 library in use, e.g. "1.10.0".
    public static var libssh2Version: String { libSSH2Version }
}
