import SSHClient
import SessionHistory

extension ClaudeConversation {
    /// Reads Claude Code's stdout line by line until it ends, then fails whatever still waits. A
    /// detached conversation whose link was lost attaches again from the offset it reached.
    func read() async {
        var parser = ClaudeMessageParser()
        var failure = await readAttachment(&parser)
        var fruitless = 0
        // The reason says how the link was lost, not where the follower ran: Claude Code is what goes on.
        while let id = detachedID, let reason = (failure as? SSHError)?.linkLossReason, !leaving {
            if fruitless == 0 { deliver([.linkLost(reason: reason)], endsTurn: false) }
            // Three attaches in a row that got nowhere: the connection is not coming back.
            guard fruitless < 3 else {
                failure = ClaudeConversationError.detachedLinkLost(id: id, reason: reason)
                break
            }
            let (before, offset) = state.withLock { state in
                state.detached?.inHeader = true
                state.stderrTail = []
                return (state.detached?.attaches ?? 0, state.detached?.offset ?? 0)
            }
            do {
                let next = try Self.attach(id, offset: offset, on: connection)
                channel.withLock { $0 = next }
                failure = await readAttachment(&parser)
            } catch {
                failure = error
            }
            fruitless = state.withLock { $0.detached?.attaches ?? 0 } > before ? 0 : fruitless + 1
        }
        end(with: failure)
    }

    /// Whether this client is stopping or detaching (a lost link then ends the reading).
    private var leaving: Bool { state.withLock { $0.stopping || ($0.detached?.detaching ?? false) } }

    /// Reads the current command's output to its end; returns why it ended.
    private func readAttachment(_ parser: inout ClaudeMessageParser) async -> Error {
        let command = self.command
        var buffer: [UInt8] = []
        do {
            for try await chunk in command.output {
                switch chunk {
                case .stderr(let bytes):
                    state.withLock { $0.appendStderr(bytes) }
                case .stdout(let bytes):
                    buffer += bytes
                    var start = buffer.startIndex
                    while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                        let line = buffer[start..<newline]
                        start = newline + 1
                        await take(line, parser: &parser)
                    }
                    buffer.removeSubrange(..<start)
                }
            }
            return endError(try? await command.exitStatus())
        } catch let error as SSHError {
            if case .cancelled = error {
                if state.withLock({ $0.stopping }) { return ClaudeConversationError.stopped }
                if let id = detachedID, state.withLock({ $0.detached?.detaching ?? false }) {
                    return ClaudeConversationError.detached(id: id)
                }
            }
            return error
        } catch {
            return error
        }
    }

    /// One line of output: an attach's header line, or one of Claude Code's lines (counted in
    /// the detached offset once handled).
    private func take(_ line: ArraySlice<UInt8>, parser: inout ClaudeMessageParser) async {
        if detachedID != nil, state.withLock({ $0.detached?.inHeader ?? false }) { return header(line) }
        if !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) { await handle(line, parser: &parser) }
        guard detachedID != nil else { return }
        let replayDone = state.withLock { state -> Bool in
            guard var reading = state.detached else { return false }
            reading.offset += line.count + 1
            defer { state.detached = reading }
            guard !reading.replayed, reading.offset >= reading.replayEnd else { return false }
            return true
        }
        if replayDone { finishReplay() }
    }

    /// `rws-answered ID` or `rws-attached SIZE`, which ends the header.
    private func header(_ line: ArraySlice<UInt8>) {
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix("rws-answered ") {
            state.withLock { _ = $0.detached?.answered.insert(String(text.dropFirst("rws-answered ".count))) }
            return
        }
        guard text.hasPrefix("rws-attached "), let size = Int(text.dropFirst("rws-attached ".count)) else { return }
        let (reattached, replayDone) = state.withLock { state -> (Bool, Bool) in
            guard var reading = state.detached else { return (false, false) }
            defer { state.detached = reading }
            reading.inHeader = false
            reading.replayed = false
            reading.replayEnd = size
            reading.attaches += 1
            return (reading.attaches > 1, reading.offset >= size)
        }
        if reattached { deliver([.reattached], endsTurn: false) }
        if replayDone { finishReplay() }
    }

    /// The replay is over: questions it held that nobody answered are asked now; an attach's
    /// stream with no turn running ends.
    private func finishReplay() {
        let (held, endsFollowing) = state.withLock { state -> ([ClaudeEvent], Bool) in
            guard var reading = state.detached else { return ([], false) }
            defer { state.detached = reading }
            reading.replayed = true
            let held = reading.held.filter { !reading.answered.contains(Self.requestID(of: $0) ?? "") }
            reading.held = []
            let ends = reading.following && reading.idle && held.isEmpty
            reading.following = false
            return (held, ends)
        }
        if !held.isEmpty { deliver(held, endsTurn: false) }
        if endsFollowing {
            let turn = state.withLock { state in
                defer { state.turn = nil }
                return state.turn
            }
            turn?.finish()
        }
    }

    private func handle(_ line: ArraySlice<UInt8>, parser: inout ClaudeMessageParser) async {
        guard let message = try? JSONValue(parsing: line) else {
            // Claude Code prints only JSON on stdout in this mode; keep anything else for errors.
            state.withLock { $0.appendStderr(Array(line) + [UInt8(ascii: "\n")]) }
            return
        }
        if detachedID != nil, message["type"]?.stringValue == "rws_detached_end" { return detachedEnd(message) }
        switch parser.parse(message) {
        case .controlResponse(let id, let result):
            guard let waiter = state.withLock({ $0.pending.removeValue(forKey: id) }) else { return }
            switch result {
            case .success(let value): waiter.continuation.resume(returning: value)
            case .failure(.controlRequestFailed(_, let message)):
                waiter.continuation.resume(
                    throwing: ClaudeConversationError.controlRequestFailed(subtype: waiter.subtype, message: message))
            case .failure(let error): waiter.continuation.resume(throwing: error)
            }
        case .permissionRequest(let request):
            let event = ClaudeUserQuestions(request).map(ClaudeEvent.userQuestion) ?? .permissionRequest(request)
            // In a replay, a question may have been answered by an earlier client: held to its end.
            let held = state.withLock { state -> Bool in
                guard var reading = state.detached, !reading.replayed else { return false }
                defer { state.detached = reading }
                if !reading.answered.contains(request.requestID) { reading.held.append(event) }
                reading.idle = false
                return true
            }
            if !held { deliver([event], endsTurn: false) }
        case .unsupportedControlRequest(let id, let subtype):
            guard state.withLock({ $0.detached?.replayed ?? true }) else { return }
            try? await write(ClaudeOutgoing.controlError(id: id, message: "rws does not serve \(subtype) requests"), retrying: false)
        case .events(let events, let endsTurn):
            deliver(events, endsTurn: endsTurn)
        }
    }

    /// The keeper's end line: the conversation ended on the box. Closing stdin tells the attach
    /// script that this client read the end, so the box removes the conversation's files.
    private func detachedEnd(_ message: JSONValue) {
        guard let id = detachedID else { return }
        let stopping = state.withLock { $0.stopping }
        let error: ClaudeConversationError
        switch message["reason"]?.stringValue {
        case "idle": error = .endedIdle(id: id)
        case "stopped": error = stopping ? .stopped : .processExited(status: "stopped on the box", stderr: "")
        default:
            let status = message["status"]?.numberValue.map { "exit status \(Int($0))" } ?? "unknown status"
            error = .processExited(status: status, stderr: state.withLock { String(decoding: $0.stderrTail, as: UTF8.self) })
        }
        state.withLock { $0.detached?.ending = error }
        let command = self.command
        Task { try? await command.closeInput() }
    }

    /// Passes events to the running turn; the turn's stream ends after its result (in an
    /// attach's replay, after the live turn's result).
    func deliver(_ events: [ClaudeEvent], endsTurn: Bool) {
        let (turn, ends) = state.withLock { state -> (AsyncThrowingStream<ClaudeEvent, Error>.Continuation?, Bool) in
            for case .sessionStarted(let info) in events { state.sessionID = info.id }
            if state.discardingTurn {
                if endsTurn { state.discardingTurn = false }
                return (nil, false)
            }
            var ends = endsTurn
            if var reading = state.detached, !events.isEmpty {
                let claudeEvents = events.contains {
                    if case .linkLost = $0 { false } else if case .reattached = $0 { false } else { true }
                }
                if claudeEvents { reading.idle = endsTurn }
                if reading.following, !reading.replayed { ends = false }
                state.detached = reading
            }
            let turn = state.turn
            if ends { state.turn = nil }
            return (turn, ends)
        }
        guard let turn else { return }
        for event in events { turn.yield(event) }
        if ends { turn.finish() }
    }

    /// The request id of a permission question or a user question.
    static func requestID(of event: ClaudeEvent) -> String? {
        switch event {
        case .permissionRequest(let request): request.requestID
        case .userQuestion(let questions): questions.request.requestID
        default: nil
        }
    }

    /// Why the current command ended: a detached conversation's end line or attach status, else
    /// Claude Code's exit status and the markers of the command line.
    private func endError(_ status: ExitStatus?) -> Error {
        guard let id = detachedID else { return exitError(status) }
        if let ending = state.withLock({ $0.detached?.ending }) { return ending }
        switch status?.scriptExit(DetachedClaudeScripts.AttachExit.self) {
        case .notFound: return ClaudeConversationError.detachedNotFound(id: id)
        case .takenOver: return ClaudeConversationError.takenOver(id: id)
        case nil:
            if state.withLock({ $0.stopping }) { return ClaudeConversationError.stopped }
            // The attach ended without the end line: the link went with it.
            return SSHError.connectionLost(reason: "the attach to conversation \(id) ended (\(status?.description ?? "no status"))")
        }
    }

    /// Why the process ended, from its exit status and the markers of the command line.
    private func exitError(_ status: ExitStatus?) -> ClaudeConversationError {
        let stderr = state.withLock { String(decoding: $0.stderrTail, as: UTF8.self) }
        if stderr.contains(ClaudeCommandLine.missingClaudeMarker) { return .claudeNotFound(executable: options.claudeExecutable) }
        if stderr.contains(ClaudeCommandLine.missingDirectoryMarker) { return .directoryNotFound(options.directory ?? "~") }
        if state.withLock({ $0.stopping }) { return .stopped }
        var shown = status?.description ?? "unknown status"
        var lines = stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        if let index = lines.lastIndex(where: { $0.hasPrefix(ClaudeCommandLine.exitMarker) }) {
            shown = "exit status " + lines[index].dropFirst(ClaudeCommandLine.exitMarker.count)
            lines.remove(at: index)
        }
        return .processExited(status: shown, stderr: lines.joined(separator: "\n"))
    }

    private func end(with error: Error) {
        let (turn, pending) = state.withLock { state in
            state.ended = error
            let taken = (state.turn, Array(state.pending.values))
            state.turn = nil
            state.pending = [:]
            return taken
        }
        turn?.finish(throwing: error)
        for waiter in pending { waiter.continuation.resume(throwing: error) }
    }
}
