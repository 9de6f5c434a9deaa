import SSHClient

extension ClaudeConversation {
    /// Starts Claude Code detached on the box (see ``DetachedClaudeScripts``) and attaches to it.
    static func startDetached(
        on connection: SSHConnection, options: ClaudeConversationOptions, policy: ClaudeDetachedPolicy
    ) async throws -> ClaudeConversation {
        let id = DetachedClaudeScripts.newID()
        let arguments = try ClaudeCommandLine.detachedStart(options, id: id, idleSeconds: policy.idleSeconds)
        _ = try await DetachedClaudeScripts.start.run(on: connection, arguments, timeout: .seconds(60)) { result -> any Error in
            switch result.status.scriptExit(DetachedClaudeScripts.StartExit.self) {
            case .missingDirectory: return ClaudeConversationError.directoryNotFound(options.directory ?? "~")
            case .missingClaude: return ClaudeConversationError.claudeNotFound(executable: options.claudeExecutable)
            case .noSetsid:
                return ClaudeConversationError.detachUnsupported(reason: "setsid is not installed there (util-linux or BusyBox)")
            case .folderNotMade:
                return ClaudeConversationError.detachUnsupported(reason: "\(DetachedClaudeScripts.folder)/\(id) could not be made")
            case nil:
                return ClaudeConversationError.processExited(status: result.status.description, stderr: result.stderrText)
            }
        }
        return ClaudeConversation(
            options: options, command: try attach(id, offset: 0, on: connection), connection: connection, detachedID: id)
    }

    /// Attaches to detached conversation `id` on the box, taking it over from a client still
    /// attached (that client's conversation ends with ``ClaudeConversationError/takenOver(id:)``).
    ///
    /// The returned events are everything the conversation did so far, then the running turn to
    /// its result; they end at once when no turn runs. Permission questions still open are among
    /// them, answerable with ``respond(to:with:)``; questions an earlier client answered are not.
    ///
    /// - Parameters:
    ///   - id: The conversation's id (from ``detachedID`` or ``listDetached(on:)``).
    ///   - connection: The connection to the box; give it a reconnect policy to survive lost links.
    ///   - options: Used for the program name in errors; the conversation keeps its own settings.
    /// - Throws: ``ClaudeConversationError/detachedNotFound(id:)``, `SSHError` when the connection fails.
    public static func attach(
        _ id: String, on connection: SSHConnection, options: ClaudeConversationOptions = ClaudeConversationOptions()
    ) async throws -> (conversation: ClaudeConversation, events: AsyncThrowingStream<ClaudeEvent, Error>) {
        guard DetachedClaudeScripts.isPlainID(id) else { throw ClaudeConversationError.detachedNotFound(id: id) }
        let conversation = ClaudeConversation(
            options: options, command: try attach(id, offset: 0, on: connection), connection: connection, detachedID: id)
        let (events, continuation) = AsyncThrowingStream<ClaudeEvent, Error>.makeStream()
        conversation.state.withLock { state in
            state.turn = continuation
            state.turnNumber += 1
            state.detached?.following = true
        }
        conversation.startReading()
        // Attached once the box answered with the header; a wrong id fails here.
        while true {
            let (attached, ended) = conversation.state.withLock { (($0.detached?.attaches ?? 0) > 0, $0.ended) }
            if let ended { throw ended }
            if attached { return (conversation, events) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Stops detached conversation `id` on the box: Claude Code and every process it started are
    /// killed and the process table checked; its files are removed.
    ///
    /// - Throws: ``ClaudeConversationError/detachedNotFound(id:)``, `SSHError.stopFailed` when
    ///   processes survived, `SSHError` when the connection fails.
    public static func stopDetached(_ id: String, on connection: SSHConnection) async throws {
        guard DetachedClaudeScripts.isPlainID(id) else { throw ClaudeConversationError.detachedNotFound(id: id) }
        let ids: [RemoteScript.Argument] = [.path(DetachedClaudeScripts.folder), .word(id)]
        let asked = try await DetachedClaudeScripts.stop.result(on: connection, ids, timeout: .seconds(30))
        if asked.status == DetachedClaudeScripts.StopExit.notFound { throw ClaudeConversationError.detachedNotFound(id: id) }
        func pid(_ label: String) -> Int? {
            asked.stdoutText.split(separator: "\n").last { $0.hasPrefix(label + " ") }.flatMap { Int($0.dropFirst(label.count + 1)) }
        }
        if let group = pid("group") { try await connection.stopRemoteProcesses(of: group, command: "Claude Code (conversation \(id))") }
        let keeper: [RemoteScript.Argument] = [.word(pid("keeper").map(String.init) ?? "")]
        _ = try await DetachedClaudeScripts.forget.result(on: connection, ids + keeper, timeout: .seconds(30))
    }

    /// The detached conversations on the box.
    ///
    /// - Parameter connection: The connection to the box.
    /// - Throws: `SSHError` when the connection fails.
    public static func listDetached(on connection: SSHConnection) async throws -> [ClaudeDetachedConversation] {
        let result = try await DetachedClaudeScripts.list.result(on: connection, [.path(DetachedClaudeScripts.folder)], timeout: nil)
        return result.stdoutText.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, let state = ClaudeDetachedConversation.State(rawValue: fields[1]) else { return nil }
            return ClaudeDetachedConversation(
                id: fields[0], state: state, sessionID: fields[2].isEmpty ? nil : fields[2], directory: fields[3].isEmpty ? nil : fields[3])
        }.sorted { $0.id < $1.id }
    }

    /// Leaves a detached conversation running on the box and ends this client's part: the
    /// running turn's stream throws ``ClaudeConversationError/detached(id:)``. Does nothing more
    /// for a conversation that is not detached than ``stop()``.
    public func detach() async {
        guard detachedID != nil else { return await stop() }
        state.withLock { $0.detached?.detaching = true }
        command.cancel()
        await readerTask?.value
    }

    /// Starts the attach script, replaying `out` from `offset`.
    static func attach(_ id: String, offset: Int, on connection: SSHConnection) throws -> RemoteCommand {
        try DetachedClaudeScripts.attach.start(on: connection, [.path(DetachedClaudeScripts.folder), .word(id), .word(String(offset))])
    }

    /// Writes to Claude Code's stdin. `retrying`: a detached conversation whose link is down
    /// writes again once it attached again (answers and control requests, which Claude Code
    /// takes once; a prompt is not repeated, as it may have arrived).
    func write(_ text: String, retrying: Bool) async throws {
        while true {
            let (current, attaches) = (command, state.withLock { $0.detached?.attaches ?? 0 })
            do {
                return try await current.write(text)
            } catch SSHError.connectionLost where retrying && detachedID != nil {
                while state.withLock({ $0.ended == nil && ($0.detached?.attaches ?? 0) == attaches }) {
                    try await Task.sleep(for: .milliseconds(100))
                }
                if let ended = state.withLock({ $0.ended }) { throw ended }
            }
        }
    }
}
