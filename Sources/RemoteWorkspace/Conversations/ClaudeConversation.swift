import SSHClient
import SessionHistory
import Synchronization

/// A conversation with Claude Code on the box, over one SSH channel.
///
/// Runs `claude --input-format stream-json --output-format stream-json --verbose` in the project
/// directory and keeps it running: each ``send(_:)-(ClaudePrompt)`` writes a user message to its stdin and returns
/// the turn's events; permission questions arrive as ``ClaudeEvent/permissionRequest(_:)`` and are
/// answered with ``respond(to:with:)``. Nothing but Claude Code has to be on the box.
///
/// ```swift
/// let conversation = try await ClaudeConversation.start(on: connection, options: .init(directory: "~/workspace/app"))
/// for try await event in try await conversation.send(ClaudePrompt("What does main.swift do?")) {
///     if case .textDelta(let text) = event { print(text, terminator: "") }
///     if case .permissionRequest(let request) = event { try await conversation.respond(to: request, with: .allow) }
/// }
/// await conversation.stop()
/// ```
///
/// With ``ClaudeConversationOptions/detached`` Claude Code runs apart from the channel: a lost link
/// leaves the turn running on the box, and the conversation attaches again once the connection is
/// back, delivering what it missed, each event once, between ``ClaudeEvent/linkLost(reason:)`` and
/// ``ClaudeEvent/reattached``. ``attach(_:on:options:)`` joins it from another process.
public final class ClaudeConversation: Sendable {
    /// The options it was started with (a resumed id prefix replaced by the full id).
    public let options: ClaudeConversationOptions
    /// The remote command running Claude Code; for a detached conversation, the current attach.
    public var command: RemoteCommand { channel.withLock { $0 } }
    /// The id of a detached conversation on the box; nil when Claude Code runs on the channel.
    public let detachedID: String?
    let connection: SSHConnection
    let channel: Mutex<RemoteCommand>
    /// Starts rws's control request ids: random for a detached conversation, whose replays hold
    /// the answers to earlier clients' requests.
    let requestPrefix: String
    let state = Mutex(ClaudeConversationState())
    private let reader = Mutex<Task<Void, Never>?>(nil)
    private let stopTask = Mutex<Task<Void, Never>?>(nil)

    init(options: ClaudeConversationOptions, command: RemoteCommand, connection: SSHConnection, detachedID: String? = nil) {
        self.options = options
        self.channel = Mutex(command)
        self.connection = connection
        self.detachedID = detachedID
        requestPrefix = detachedID == nil ? "rws-" : "rws-\(UInt32.random(in: .min ... .max))-"
        if let detachedID { state.withLock { $0.detached = DetachedReading(id: detachedID) } }
    }

    /// Starts Claude Code on the box and completes the protocol's `initialize` handshake.
    ///
    /// A ``ClaudeConversationStart/resume(_:)`` id may be a unique prefix: it is resolved with
    /// ``RemoteSessions/findSession(_:)``, and the session's own directory is used when
    /// ``ClaudeConversationOptions/directory`` is nil.
    ///
    /// - Parameters:
    ///   - connection: The connection to the box.
    ///   - options: Directory, conversation to continue, permission mode, model, program.
    /// - Throws: ``ClaudeConversationError/claudeNotFound(executable:)``,
    ///   ``ClaudeConversationError/directoryNotFound(_:)``, ``ClaudeConversationError/processExited(status:stderr:)``,
    ///   ``ClaudeConversationError/detachUnsupported(reason:)`` (detached, without `setsid` on the box),
    ///   ``RemoteSessionError`` for an unknown or ambiguous session id, `SSHError` when the connection fails.
    public static func start(
        on connection: SSHConnection, options: ClaudeConversationOptions = ClaudeConversationOptions()
    ) async throws -> ClaudeConversation {
        let resolved = try await options.resolved(on: connection)
        let conversation: ClaudeConversation
        if let policy = resolved.detached {
            conversation = try await startDetached(on: connection, options: resolved, policy: policy)
        } else {
            let command = try ClaudeCommandLine.run.start(on: connection, try ClaudeCommandLine.arguments(resolved))
            conversation = ClaudeConversation(options: resolved, command: command, connection: connection)
        }
        conversation.startReading()
        let timer = Task { [timeout = resolved.startTimeout] in
            try await Task.sleep(for: timeout)
            conversation.failWaiters(with: ClaudeConversationError.startTimedOut(after: timeout))
        }
        defer { timer.cancel() }
        do {
            _ = try await conversation.control("initialize", fields: [JSONMember("hooks", .null)])
        } catch {
            await conversation.stop()
            throw error
        }
        return conversation
    }

    /// The session id Claude Code reported for the latest turn; nil before the first turn.
    public var sessionID: String? { state.withLock { $0.sessionID } }

    /// Sends a prompt and returns the turn's events, ending with ``ClaudeEvent/result(_:)``.
    ///
    /// The stream throws when Claude Code exits or the connection fails during the turn.
    /// Cancelling the task that reads it interrupts the turn.
    ///
    /// - Parameter prompt: Text, images and file references.
    /// - Throws: ``ClaudeConversationError/turnInProgress`` while the previous turn runs; the
    ///   error that ended the conversation once it ended.
    public func send(_ prompt: ClaudePrompt) async throws -> AsyncThrowingStream<ClaudeEvent, Error> {
        let (stream, continuation) = AsyncThrowingStream<ClaudeEvent, Error>.makeStream()
        let number = try state.withLock { state in
            if let ended = state.ended { throw ended }
            guard state.turn == nil else { throw ClaudeConversationError.turnInProgress }
            state.turn = continuation
            state.turnNumber += 1
            return state.turnNumber
        }
        // A reader that stops reading (its task cancelled) interrupts the turn and frees the
        // conversation for the next prompt.
        continuation.onTermination = { [weak self] reason in
            guard case .cancelled = reason, let self else { return }
            let mine = self.state.withLock { state in
                guard state.turnNumber == number, state.turn != nil else { return false }
                state.turn = nil
                state.discardingTurn = true
                return true
            }
            if mine { Task { try? await self.interrupt() } }
        }
        do {
            try await write(ClaudeOutgoing.userMessage(prompt.content), retrying: false)
        } catch {
            state.withLock { $0.turn = nil }
            throw error
        }
        return stream
    }

    /// Sends a text prompt; see ``send(_:)-(ClaudePrompt)``.
    ///
    /// - Parameter text: The prompt.
    public func send(_ text: String) async throws -> AsyncThrowingStream<ClaudeEvent, Error> {
        try await send(ClaudePrompt(text))
    }

    /// Answers a permission question of the running turn.
    ///
    /// - Parameters:
    ///   - request: The question, from ``ClaudeEvent/permissionRequest(_:)``.
    ///   - decision: Allow once, allow the tool for the rest of the session, or deny with a message.
    public func respond(to request: ClaudePermissionRequest, with decision: ClaudePermissionDecision) async throws {
        try state.withLock { if let ended = $0.ended { throw ended } }
        let answer = ClaudeOutgoing.controlSuccess(id: request.requestID, response: decision.response(to: request))
        guard detachedID != nil else { return try await command.write(answer) }
        // Noted on the box too, so that a client attaching later does not ask it again.
        state.withLock { _ = $0.detached?.answered.insert(request.requestID) }
        let marker = DetachedClaudeScripts.isPlainID(request.requestID) ? "#rws-answered \(request.requestID)\n" : ""
        try await write(marker + answer, retrying: true)
    }

    /// Interrupts the running turn; the turn then ends with a result whose
    /// ``ClaudeTurnResult/wasInterrupted`` is true, and the conversation takes the next prompt.
    public func interrupt() async throws {
        _ = try await control("interrupt")
    }

    /// Changes the permission mode for the following tool calls.
    ///
    /// - Parameter mode: The new mode.
    public func setPermissionMode(_ mode: ClaudePermissionMode) async throws {
        _ = try await control("set_permission_mode", fields: [JSONMember("mode", .string(mode.rawValue))])
    }

    /// Changes the model for the following turns.
    ///
    /// - Parameter model: A model alias or name; nil for Claude Code's default.
    public func setModel(_ model: String?) async throws {
        _ = try await control("set_model", fields: [JSONMember("model", model.map(JSONValue.string) ?? .null)])
    }

    /// Stops Claude Code: kills its process group on the box (tools it started included) and
    /// waits until that is done. A running turn's stream throws ``ClaudeConversationError/stopped``.
    /// A detached conversation is stopped on the box as with ``stopDetached(_:on:)`` (when the
    /// connection allows; else it ends there after its idle time).
    public func stop() async {
        // One stop, however many callers (a second Ctrl+C while the first stop runs): each
        // returns when it is done.
        let stopping = stopTask.withLock { task in
            if let task { return task }
            let started = Task {
                state.withLock { $0.stopping = true }
                if let detachedID { try? await Self.stopDetached(detachedID, on: connection) }
                command.cancel()
                await reader.withLock { $0 }?.value
            }
            task = started
            return started
        }
        await stopping.value
    }

    /// Sends a control request and waits for its answer.
    func control(_ subtype: String, fields: [JSONMember] = []) async throws -> JSONValue {
        let id: String = state.withLock { state in
            state.nextRequest += 1
            return requestPrefix + String(state.nextRequest)
        }
        let line = ClaudeOutgoing.controlRequest(id: id, subtype: subtype, fields: fields)
        return try await withCheckedThrowingContinuation { continuation in
            let ended: Error? = state.withLock { state in
                if let ended = state.ended { return ended }
                state.pending[id] = (subtype, continuation)
                return nil
            }
            if let ended { return continuation.resume(throwing: ended) }
            Task {
                do {
                    try await write(line, retrying: true)
                } catch {
                    state.withLock { $0.pending.removeValue(forKey: id) }?.continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Fails every control request still waiting for an answer.
    func failWaiters(with error: Error) {
        let waiting = state.withLock { state in
            defer { state.pending = [:] }
            return Array(state.pending.values)
        }
        for waiter in waiting { waiter.continuation.resume(throwing: error) }
    }

    /// The task reading Claude Code's output.
    var readerTask: Task<Void, Never>? { reader.withLock { $0 } }

    func startReading() {
        let task = Task { await self.read() }
        reader.withLock { $0 = task }
    }
}
