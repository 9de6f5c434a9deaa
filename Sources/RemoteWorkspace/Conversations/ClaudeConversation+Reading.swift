import SSHClient
import SessionHistory

extension ClaudeConversation {
    /// Reads Claude Code's stdout line by line until it ends, then fails whatever still waits.
    func read() async {
        var parser = ClaudeMessageParser()
        var buffer: [UInt8] = []
        var failure: Error
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
                        if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) { continue }
                        await handle(line, parser: &parser)
                    }
                    buffer.removeSubrange(..<start)
                }
            }
            failure = exitError(try? await command.exitStatus())
        } catch let error as SSHError {
            if case .cancelled = error, state.withLock({ $0.stopping }) {
                failure = ClaudeConversationError.stopped
            } else {
                failure = error
            }
        } catch {
            failure = error
        }
        end(with: failure)
    }

    private func handle(_ line: ArraySlice<UInt8>, parser: inout ClaudeMessageParser) async {
        guard let message = try? JSONValue(parsing: line) else {
            // Claude Code prints only JSON on stdout in this mode; keep anything else for errors.
            state.withLock { $0.appendStderr(Array(line) + [UInt8(ascii: "\n")]) }
            return
        }
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
            deliver([ClaudeUserQuestions(request).map(ClaudeEvent.userQuestion) ?? .permissionRequest(request)], endsTurn: false)
        case .unsupportedControlRequest(let id, let subtype):
            try? await command.write(ClaudeOutgoing.controlError(id: id, message: "rws does not serve \(subtype) requests"))
        case .events(let events, let endsTurn):
            deliver(events, endsTurn: endsTurn)
        }
    }

    /// Passes events to the running turn; the turn's stream ends after its result.
    private func deliver(_ events: [ClaudeEvent], endsTurn: Bool) {
        let turn: AsyncThrowingStream<ClaudeEvent, Error>.Continuation? = state.withLock { state in
            for case .sessionStarted(let info) in events { state.sessionID = info.id }
            if state.discardingTurn {
                if endsTurn { state.discardingTurn = false }
                return nil
            }
            let turn = state.turn
            if endsTurn { state.turn = nil }
            return turn
        }
        guard let turn else { return }
        for event in events { turn.yield(event) }
        if endsTurn { turn.finish() }
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
