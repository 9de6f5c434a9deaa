import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import SessionHistory
import Testing

/// The real Claude Code CLI, run over SSH on the test box against a scripted model, is the oracle
/// for session history: what rws lists and loads must match what the CLI wrote and reported.
@Suite(.serialized)
struct ClaudeOracleTests {
    @Test func textThinkingEveryToolAFailingToolAndASubagentReadAsTheCLIReportedThem() async throws {
        let oracle = try await ClaudeOracle.start { project in
            [
                OracleTurn.tool(
                    "Read", ["file_path": project + "/notes.txt"], saying: "Reading the notes.", thinking: "Start with the notes."),
                OracleTurn.tool("Edit", ["file_path": project + "/notes.txt", "old_string": "line one", "new_string": "line 1"]),
                OracleTurn.tool("Write", ["file_path": project + "/new.txt", "content": "fresh\n"]),
                OracleTurn.tool("TodoWrite", ["todos": [["content": "check", "status": "pending", "activeForm": "Checking"]]]),
                OracleTurn.tool("Bash", ["command": "echo broken >&2; exit 3", "description": "a failing command"]),
                OracleTurn.tool(
                    "Task",
                    [
                        "description": "look around", "prompt": "List the files.",
                        "subagent_type": "general-purpose", "run_in_background": false,
                    ]),
                OracleTurn.tool("Bash", ["command": "ls", "description": "list"]),  // the subagent
                OracleTurn.text("Two files."),  // the subagent's answer
                OracleTurn.text("All done.", thinking: "That is everything."),
            ]
        }
        defer { oracle.stop() }
        try "line one\n".write(toFile: oracle.project + "/notes.txt", atomically: true, encoding: .utf8)

        let run = try await oracle.claude("Tidy the notes")
        #expect(!run.isError)
        #expect(try String(contentsOfFile: oracle.project + "/notes.txt", encoding: .utf8) == "line 1\n")
        let names = run.blocks("tool_use").compactMap { $0["name"] as? String }
        #expect(names == ["Read", "Edit", "Write", "TodoWrite", "Bash", "Task"])
        let failed = run.toolResults.values.filter(\.isError).map(\.text)
        #expect(
            failed.count == 2 && failed.contains("Exit code 3\nbroken"), "TodoWrite (disabled in 2.1.x) and the Bash failure: \(failed)")

        let session = try await oracle.verifySession(run.sessionId, runs: [run], title: "Tidy the notes")
        let task = try #require(run.blocks("tool_use").first { $0["name"] as? String == "Task" }?["id"] as? String)
        let subagent = try #require(session.conversation.subagent(forToolUse: task), "the Task call's subagent")
        let subagentCalls = run.messages.filter { $0["type"] as? String == "assistant" && $0["parent_tool_use_id"] as? String == task }
            .flatMap { (($0["message"] as? [String: Any])?["content"] as? [[String: Any]]) ?? [] }
            .filter { $0["type"] as? String == "tool_use" }.compactMap { $0["id"] as? String }
        #expect(subagent.conversation.toolCalls.map(\.id) == subagentCalls)
        #expect(subagent.conversation.entries.contains { if case .assistant(let turn) = $0 { turn.text == "Two files." } else { false } })
        // `result.usage` leaves the subagent out (checked in verifySession); `modelUsage` has it.
        let byModel = session.conversation.totalUsage.byModel.mapValues { [$0.inputTokens, $0.outputTokens] }
        #expect(byModel == run.modelUsage.mapValues { [$0.input, $0.output] })
        #expect(session.listing.subagentFiles.filter { $0.path.hasSuffix(".jsonl") }.count == 1)
    }

    @Test func resumeContinueAndForkExtendTheSessionsTheCLIReports() async throws {
        let oracle = try await ClaudeOracle.start { _ in
            [
                OracleTurn.text("First answer."), OracleTurn.text("Resumed answer."),
                OracleTurn.text("Continued answer."), OracleTurn.text("Forked answer."),
            ]
        }
        defer { oracle.stop() }
        let first = try await oracle.claude("Start here")
        let id = first.sessionId
        let resumed = try await oracle.claude("Go on", ["--resume", id])
        #expect(resumed.sessionId == id)
        let continued = try await oracle.claude("And more", ["--continue"])
        #expect(continued.sessionId == id)
        try await oracle.verifySession(id, runs: [first, resumed, continued], title: "And more")

        let forked = try await oracle.claude("Try another way", ["--resume", id, "--fork-session"])
        #expect(forked.sessionId != id)
        // 2.1.330 writes the fork's `last-prompt` as the first prompt of the copied history, so
        // its picker calls the fork "Start here"; rws shows the same.
        let lastPrompt = try oracle.writtenRecords(oracle.box.sessionFile(forked.sessionId)).last { $0["type"] as? String == "last-prompt" }
        #expect(lastPrompt?["lastPrompt"] as? String == "Start here")
        try await oracle.verifySession(forked.sessionId, runs: [first, resumed, continued, forked], title: "Start here")
        // The original is untouched by the fork.
        try await oracle.verifySession(id, runs: [first, resumed, continued], title: "And more")
    }

    @Test func aRenameByRWSIsTheTitleTheCLIKeepsWhenItResumesTheSession() async throws {
        let oracle = try await ClaudeOracle.start { _ in [OracleTurn.text("Hello."), OracleTurn.text("Still here.")] }
        defer { oracle.stop() }
        let first = try await oracle.claude("Say hello")
        let id = first.sessionId
        try await oracle.sessions().renameSession(id, title: "Greeting work")
        try await oracle.verifySession(id, runs: [first], title: "Greeting work")

        let resumed = try await oracle.claude("Say it again", ["--resume", id])
        #expect(resumed.sessionId == id)
        try await oracle.verifySession(id, runs: [first, resumed], title: "Greeting work")
        // The CLI's own view of the title: `--resume NAME` finds the session by the name rws gave it.
        let byName = try await oracle.claude("Once more", ["--resume", "Greeting work"])
        #expect(byName.sessionId == id)
        // Claude Code's picker reads a 64 KiB tail; the CLI does not write the title again when
        // it resumes, so after this run the title record is ~8.4 KB from the end.
        try await oracle.verifySession(id, runs: [first, resumed, byName], title: "Greeting work", window: SessionSummarizer.defaultWindow)
        try await oracle.verifySession(id, runs: [first, resumed, byName], title: "Greeting work")
    }

    @Test func autoCompactionPastTheWindowIsShownWhereTheCLIPutIt() async throws {
        // The model reports a nearly full context (990,000 of 1,000,000 input tokens): the next
        // prompt makes the CLI compact automatically before answering.
        let oracle = try await ClaudeOracle.start { _ in
            [
                OracleTurn.text("A very long answer.", usage: ["input_tokens": 990_000]),
                OracleTurn.text("Answer after compaction."),
            ]
        }
        defer { oracle.stop() }
        let first = try await oracle.claude("Read everything")
        let second = try await oracle.claude("Now summarise", ["--resume", first.sessionId])
        let boundary = try #require(second.messages.first { $0["subtype"] as? String == "compact_boundary" }, "no compaction")
        let metadata = boundary["compact_metadata"] as? [String: Any] ?? [:]
        #expect(metadata["trigger"] as? String == "auto")

        let session = try await oracle.verifySession(first.sessionId, runs: [first, second], title: "Now summarise")
        let markers = session.conversation.entries.compactMap { entry -> CompactionMarker? in
            if case .compaction(let marker) = entry { return marker }
            return nil
        }
        #expect(markers.count == 1)
        #expect(markers.first?.trigger == "auto")
        #expect(markers.first?.preTokens == metadata["pre_tokens"] as? Int)
        // As /resume shows it: from the compaction on, the summary then the new prompt.
        let resumedView = try await oracle.sessions().load(
            try await oracle.listed(first.sessionId),
            options: ConversationOptions(includePreCompactionHistory: false))
        let kinds = resumedView.conversation.entries.compactMap { entry -> UserTurnKind? in
            if case .user(let turn) = entry { return turn.kind }
            return nil
        }
        #expect(kinds == [.compactSummary, .prompt])
    }

    @Test func aSessionStillBeingWrittenIsListedAndLoadedAsFarAsTheCLIWroteIt() async throws {
        let oracle = try await ClaudeOracle.start { _ in
            [
                OracleTurn.text("Slow answer.", delay: 0, chunks: 6, chunkDelay: 0.5)
            ]
        }
        defer { oracle.stop() }
        let command = try oracle.startClaude("Take your time")
        // Wait for the file to hold the prompt, then list and load while the answer streams.
        let listing = try await Eventually.value(within: .seconds(30), every: .milliseconds(100)) {
            try await oracle.sessions().listSessions(project: oracle.project).first
        }
        let live = try #require(listing, "the running session was never listed")
        #expect(live.summary.title == "Take your time")
        // Claude Code 2.1.33x names the prompt (queue-operation records) a moment before it writes
        // the prompt's own record: load again until that is there too, the answer still streaming.
        func holdsPrompt(_ loaded: RemoteSession) -> Bool {
            loaded.conversation.entries.contains { if case .user(let turn) = $0 { turn.text == "Take your time" } else { false } }
        }
        var partial = try await oracle.sessions().load(live)
        for _ in 0..<50 where !holdsPrompt(partial) {
            try await Task.sleep(for: .milliseconds(100))
            partial = try await oracle.sessions().load(try await oracle.listed(live.id))
        }
        #expect(holdsPrompt(partial))
        let written = try oracle.writtenRecords(oracle.box.sessionFile(live.id))
        #expect(!written.contains { $0["type"] as? String == "cost-state" }, "listed only after the turn ended: not a live listing")

        var stdout: [UInt8] = []
        for try await chunk in command.output { if case .stdout(let bytes) = chunk { stdout += bytes } }
        let run = OracleRun(stdout: String(decoding: stdout, as: UTF8.self), prompt: "Take your time")
        #expect(run.sessionId == live.id)
        try await oracle.verifySession(live.id, runs: [run], title: "Take your time")
    }

    /// After each answer the CLI writes a prompt snapshot of ~57 KB and a few small records: with
    /// a long answer the last assistant record starts well before a 64 KiB tail. The listing's
    /// tail grows until it holds that record, so the state and the context figure are right.
    @Test(arguments: [10_000, 200_000])
    func aLongAnswerFollowedByTheCLIsLateRecordsIsListedAsWaitingForInput(answerBytes: Int) async throws {
        let answer = String(repeating: "All of it, in detail. ", count: answerBytes / 22)
        let oracle = try await ClaudeOracle.start { _ in [OracleTurn.text(answer, chunks: 4)] }
        defer { oracle.stop() }
        let run = try await oracle.claude("Explain everything")
        let file = oracle.box.sessionFile(run.sessionId)
        let written = try oracle.writtenRecords(file)
        let size = try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0
        let lastAnswer = try #require(written.lastIndex { $0["type"] as? String == "assistant" })
        let after = written[(lastAnswer + 1)...].map { try? JSONSerialization.data(withJSONObject: $0).count }.reduce(0) { $0 + ($1 ?? 0) }
        #expect(after + answer.utf8.count > SessionSummarizer.defaultWindow, "the answer and what follows fit Claude Code's tail window")
        try await oracle.verifySession(run.sessionId, runs: [run], title: "Explain everything")

        // The local listing of the same folder (the box is this machine) says the same.
        let local = try LocalProject.listSessions(in: URL(fileURLWithPath: oracle.box.projectFolder))
        let summary = try #require(local.first { $0.summary.id == run.sessionId }?.summary)
        #expect(summary.activity == .turnEnded)
        #expect(summary.contextUse?.tokens == run.lastPromptTokens)
        #expect(size > answer.utf8.count)
    }
}
