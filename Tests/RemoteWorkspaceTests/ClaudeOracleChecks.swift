import Foundation
import RWSTestSupport
import RemoteWorkspace
import SessionHistory
import Testing

/// The comparisons every oracle scenario makes between what the CLI wrote/reported and what rws reads.
extension ClaudeOracle {
    /// Lists the project and returns the session `id`, failing when it is not listed.
    func listed(_ id: String, window: Int? = nil) async throws -> RemoteSessionListing {
        let all = try await sessions(window: window).listSessions(project: project)
        let found = all.first { $0.id == id }
        #expect(found != nil, "session \(id) not listed; listed: \(all.map(\.id))")
        return try #require(found)
    }

    /// The listing matches the file the CLI wrote and what it reported: id, title, first and last
    /// time, model, cost; the loaded conversation's message count, content and usage match its runs.
    ///
    /// - Parameters:
    ///   - runs: the runs whose output is in this session's file, oldest first (a fork's parent runs too).
    ///   - title: the title Claude Code's picker would show.
    @discardableResult
    ///   - window: the listing's first window (nil: rws's default).
    func verifySession(
        _ id: String, runs: [OracleRun], title: String, window: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> RemoteSession {
        let listing = try await listed(id, window: window)
        let written = try writtenRecords(box.sessionFile(id))
        let summary = listing.summary
        #expect(summary.id == id, sourceLocation: sourceLocation)
        #expect(summary.title == title, sourceLocation: sourceLocation)
        let times = written.compactMap { $0["timestamp"] as? String }
        #expect(summary.firstTimestamp == times.first, "first time", sourceLocation: sourceLocation)
        #expect(summary.lastTimestamp == times.last, "last time", sourceLocation: sourceLocation)
        #expect(summary.model == runs.last?.model, "model (system/init)", sourceLocation: sourceLocation)
        #expect(summary.cwd == project, sourceLocation: sourceLocation)
        let costLine = try String(contentsOfFile: box.sessionFile(id), encoding: .utf8).split(separator: "\n")
            .last { $0.contains("\"type\":\"cost-state\"") }
        let lastCost = costLine.flatMap { exactNumber("totalCostUSD", in: String($0)) }
        #expect(summary.costUSD == lastCost, "cost-state in the file", sourceLocation: sourceLocation)
        if let run = runs.last, run.sessionId == id {
            #expect(summary.costUSD == run.costUSD, "total_cost_usd of the latest run", sourceLocation: sourceLocation)
        }

        let session = try await sessions().load(listing)
        let conversation = session.conversation
        let expectedCount = runs.reduce(0) { $0 + 1 + $1.responseIds.count + $1.generatedUserMessages }
        #expect(conversation.messageCount == expectedCount, "message count", sourceLocation: sourceLocation)
        #expect(
            conversation.usage.total.inputTokens == runs.reduce(0) { $0 + $1.inputTokens }, "input tokens", sourceLocation: sourceLocation)
        #expect(
            conversation.usage.total.outputTokens == runs.reduce(0) { $0 + $1.outputTokens }, "output tokens",
            sourceLocation: sourceLocation)
        verifyContent(conversation, runs: runs, sourceLocation: sourceLocation)
        // Every run has ended: the CLI exited after its `result`, so the session waits for input.
        #expect(summary.activity == .turnEnded, "activity", sourceLocation: sourceLocation)
        #expect(summary.state(now: summary.modificationTime ?? 0) == .waitingForInput, "state", sourceLocation: sourceLocation)
        let lastUsage = runs.last.flatMap { $0.lastPromptTokens }
        #expect(summary.contextUse?.tokens == lastUsage, "context of the last response", sourceLocation: sourceLocation)
        try verifyEveryLineRead(sourceLocation: sourceLocation)
        return session
    }

    /// Prompts, texts, thinking, tool calls and results in order, as the runs reported them.
    func verifyContent(_ conversation: Conversation, runs: [OracleRun], sourceLocation: SourceLocation = #_sourceLocation) {
        let prompts = conversation.entries.compactMap { entry -> String? in
            if case .user(let turn) = entry, turn.kind == .prompt { return turn.text }
            return nil
        }
        #expect(prompts == runs.map(\.prompt), "prompts", sourceLocation: sourceLocation)
        let turns = conversation.entries.compactMap { entry -> AssistantTurn? in
            if case .assistant(let turn) = entry { return turn }
            return nil
        }
        #expect(turns.compactMap(\.messageId) == runs.flatMap(\.responseIds), "responses", sourceLocation: sourceLocation)
        let texts = turns.flatMap { $0.content.compactMap(\.text) }
        #expect(texts == runs.flatMap { $0.blocks("text").compactMap { $0["text"] as? String } }, "texts", sourceLocation: sourceLocation)
        let thinking = turns.flatMap { turn in
            turn.content.compactMap { block -> String? in if case .thinking(let item) = block { item.thinking } else { nil } }
        }
        #expect(
            thinking == runs.flatMap { $0.blocks("thinking").compactMap { $0["thinking"] as? String } }, "thinking",
            sourceLocation: sourceLocation)
        let calls = conversation.toolCalls.map { "\($0.id) \($0.name)" }
        #expect(
            calls == runs.flatMap { $0.blocks("tool_use").map { "\($0["id"] ?? "") \($0["name"] ?? "")" } }, "tool calls",
            sourceLocation: sourceLocation)
        let reported = runs.reduce(into: [String: (text: String, isError: Bool)]()) { $0.merge($1.toolResults) { _, new in new } }
        for turn in turns {
            for call in turn.toolUses {
                let outcome = turn.toolResults[call.id]
                let expected = reported[call.id]
                #expect(outcome?.result.isError == expected?.isError, "is_error of \(call.name)", sourceLocation: sourceLocation)
                #expect(
                    outcome?.result.content.compactMap(\.text).joined(separator: "\n") == expected?.text,
                    "result of \(call.name)", sourceLocation: sourceLocation)
            }
        }
    }

    /// rws reads every line of every file the CLI wrote. Record types rws does not know are no
    /// failure here (what users see is compared above); they are written, with every top-level
    /// key of each type, to the file `RWS_CLAUDE_RECORD_REPORT` names, so that `scripts/test` can
    /// say what a newer CLI writes that the pinned one does not.
    func verifyEveryLineRead(sourceLocation: SourceLocation = #_sourceLocation) throws {
        var seen = Set<String>()
        for file in writtenFiles() {
            for record in try writtenRecords(file) {
                let type = record["type"] as? String ?? "(no type)"
                seen.insert(type + "\t")
                for key in record.keys { seen.insert(type + "\t" + key) }
            }
            let parsed = SessionParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
            for record in parsed.records {
                if case .other(let subtype) = record.system?.subtype { seen.insert("system/" + subtype + "\t") }
            }
            #expect(parsed.issues.isEmpty, "rws could not read lines of \(file): \(parsed.issues)", sourceLocation: sourceLocation)
        }
        guard let report = ProcessInfo.processInfo.environment["RWS_CLAUDE_RECORD_REPORT"], !report.isEmpty else { return }
        let lines = seen.sorted().map { $0 + "\n" }.joined()
        let handle =
            FileHandle(forWritingAtPath: report)
            ?? {
                _ = FileManager.default.createFile(atPath: report, contents: nil)
                return FileHandle(forWritingAtPath: report)
            }()
        try handle?.seekToEnd()
        try handle?.write(contentsOf: Data(lines.utf8))
        try handle?.close()
    }
}
