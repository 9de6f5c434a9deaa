import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import SessionHistory
import Testing

/// The real Claude Code CLI on the test box, over SSH, against a scripted model.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ConversationTests {
    @Test func aConversationStreamsTextAndAsksPermissionAllowedOnceThenDenied() async throws {
        let box = try TestBox(
            modelInSettings: false,
            claude: [
                Turn.bash("echo made > allowed.txt", saying: "I will create the file.", thinking: "A file is needed."),
                Turn.text("Created allowed.txt.", chunks: 3),
                Turn.bash("echo made > denied.txt"),
                Turn.text("Understood, I left it."),
            ])
        defer { box.remove() }
        try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(on: ssh, options: box.options())
            let first = try await collect(try await conversation.send("Create allowed.txt"), in: conversation) { _ in .allow }
            let session = try #require(first.session)
            #expect(session.tools.contains("Bash"))
            #expect(!session.model.isEmpty)
            #expect(session.directory == box.project)
            #expect(first.streamedThinking == "A file is needed.")
            #expect(first.streamedText == "I will create the file.Created allowed.txt.")
            #expect(first.toolCalls.map(\.name) == ["Bash"])
            #expect(first.toolCalls.first?.input["command"]?.stringValue == "echo made > allowed.txt")
            #expect(first.permissionRequests.map(\.toolName) == ["Bash"])
            #expect(first.toolResults.map(\.isError) == [false])
            #expect(!first.usages.isEmpty)
            let result = try #require(first.result)
            #expect(!result.isError && result.text == "Created allowed.txt." && result.sessionID == session.id)
            #expect(result.costUSD > 0 && result.duration > .zero)
            #expect(FileManager.default.fileExists(atPath: box.project + "/allowed.txt"))

            let second = try await collect(try await conversation.send("Now denied.txt"), in: conversation) { _ in
                .deny(message: "Not that one.")
            }
            #expect(second.session?.id == session.id)
            #expect(second.permissionRequests.count == 1)
            #expect(second.toolResults.first?.isError == true)
            #expect(second.toolResults.first?.content.contains("Not that one.") == true)
            #expect(second.result?.deniedTools == ["Bash"])
            #expect(!FileManager.default.fileExists(atPath: box.project + "/denied.txt"))
            // The model saw the refusal as the tool's result.
            let lastRequest = try #require(box.model.conversationRequests().last)
            #expect("\(lastRequest["messages"] ?? "")".contains("Not that one."))
            #expect(conversation.sessionID == session.id)
            await conversation.stop()
        }
        #expect(try await box.waitUntilNoProcess().isEmpty)
    }

    @Test func grantingClaudeCodesOwnPrefixRuleHoldsAfterResumeWhileOtherCommandsAreStillAsked() async throws {
        let box = try TestBox(
            modelInSettings: false,
            claude: [
                Turn.bash("npm test --silent"), Turn.bash("npm test --watch"), Turn.bash("echo two > two.txt"), Turn.text("Done."),
                Turn.bash("npm test --again"), Turn.text("Done again."),
            ])
        defer { box.remove() }
        let session = try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(on: ssh, options: box.options())
            var asked: [ClaudePermissionRequest] = []
            let events = try await collect(try await conversation.send("Test"), in: conversation) { request in
                asked.append(request)
                return asked.count == 1 ? .allowGranting(Array(request.grants.prefix(1))) : .deny(message: "no")
            }
            let grant = try #require(asked.first?.grants.first)
            #expect(grant.kind == .rules(["Bash(npm test *)"], behavior: "allow"))
            #expect(grant.destination == "localSettings")
            #expect(grant.summary.contains("allow Bash(npm test *), kept in this project's local settings"))
            #expect(grant.allows == "commands starting with `npm test`: run without asking (nothing else)")
            // The second npm test ran without a question; the echo was asked.
            #expect(asked.map { $0.input["command"]?.stringValue } == ["npm test --silent", "echo two > two.txt"])
            await conversation.stop()
            return try #require(events.session?.id)
        }
        let local = try String(contentsOfFile: box.project + "/.claude/settings.local.json", encoding: .utf8)
        #expect(local.contains("Bash(npm test *)"))
        try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(on: ssh, options: box.options(start: .resume(session)))
            let events = try await collect(try await conversation.send("Again"), in: conversation) { _ in .deny(message: "no") }
            #expect(events.permissionRequests.isEmpty)
            #expect(events.toolResults.count == 1)
            await conversation.stop()
        }
    }

    @Test func permissionModeBypassRunsToolsWithoutQuestions() async throws {
        let box = try TestBox(modelInSettings: false, claude: [Turn.bash("echo x > bypass.txt"), Turn.text("Done.")])
        defer { box.remove() }
        try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(on: ssh, options: box.options(mode: .bypassPermissions))
            let events = try await collect(try await conversation.send("Go"), in: conversation)
            #expect(events.session?.permissionMode == "bypassPermissions")
            #expect(events.permissionRequests.isEmpty)
            #expect(FileManager.default.fileExists(atPath: box.project + "/bypass.txt"))
            await conversation.stop()
        }
    }

    @Test func anInterruptEndsALongTurnAndTheConversationTakesTheNextPrompt() async throws {
        let box = try TestBox(
            modelInSettings: false,
            claude: [
                Turn.text(String(repeating: "word ", count: 60), chunks: 60, delay: 0.2),
                Turn.text("After the interrupt."),
            ])
        defer { box.remove() }
        try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(on: ssh, options: box.options())
            var interrupted = false
            let first = try await collect(
                try await conversation.send("Talk a lot"), in: conversation,
                onEvent: { event in
                    if case .textDelta = event, !interrupted {
                        interrupted = true
                        try await conversation.interrupt()
                    }
                })
            let result = try #require(first.result)
            #expect(result.wasInterrupted)
            #expect(first.streamedText.count < 300)
            #expect(first.errors.isEmpty)
            let second = try await collect(try await conversation.send("Go on"), in: conversation)
            #expect(second.result?.text == "After the interrupt.")
            #expect(second.session?.id == first.session?.id)
            await conversation.stop()
        }
    }

    @Test func askUserQuestionArrivesAsATypedEventAndTheTypedAnswerReachesTheModel() async throws {
        let questions: [[String: Any]] = [
            [
                "question": "Which colour?", "header": "Colour", "multiSelect": false,
                "options": [["label": "Red", "description": "warm"], ["label": "Blue", "description": "cold"]],
            ],
            [
                "question": "Which sizes?", "header": "Size", "multiSelect": true,
                "options": ["S", "M", "L"].map { ["label": $0, "description": "size " + $0] },
            ],
        ]
        let box = try TestBox(
            modelInSettings: false,
            claude: [
                ["blocks": [["type": "tool_use", "name": "AskUserQuestion", "input": ["questions": questions]]]], Turn.text("Noted."),
            ])
        defer { box.remove() }
        try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(on: ssh, options: box.options())
            var asked: [ClaudeUserQuestions] = []
            let events = try await collect(
                try await conversation.send("Ask me"), in: conversation,
                onEvent: { event in
                    guard case .userQuestion(let question) = event else { return }
                    asked.append(question)
                    let answers: [ClaudeUserAnswer] = [
                        .options([1], of: question.questions[0]), .options([0, 2], of: question.questions[1]),
                    ]
                    try await conversation.respond(to: question.request, with: question.answer(answers))
                })
            #expect(events.permissionRequests.isEmpty)
            let question = try #require(asked.first, "no question in \(events.toolResults)")
            #expect(question.questions.map(\.question) == ["Which colour?", "Which sizes?"])
            #expect(question.questions[0].options == [.init(label: "Red", description: "warm"), .init(label: "Blue", description: "cold")])
            #expect(question.questions.map(\.multiSelect) == [false, true] && question.questions[0].header == "Colour")
            #expect(question.request.requiresUserInteraction)
            let sent = "\(box.model.conversationRequests().last?["messages"] ?? "")"
            #expect(sent.contains(#"\"Which colour?\"=\"Blue\""#) && sent.contains(#"\"Which sizes?\"=\"S, L\""#), "\(sent)")
            await conversation.stop()
        }
    }

    @Test func stopKillsClaudeAndTheToolItRuns() async throws {
        let box = try TestBox(modelInSettings: false, claude: [Turn.bash("tail -f /dev/null")])
        defer { box.remove() }
        try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(on: ssh, options: box.options(mode: .bypassPermissions))
            let turn = try await conversation.send("Sleep")
            var sawCall = false
            do {
                for try await event in turn {
                    guard case .toolCall = event else { continue }
                    sawCall = true
                    #expect(try await box.waitUntilRunning("tail -f /dev/null"))
                    await conversation.stop()
                }
                Issue.record("the turn ended without an error")
            } catch let error as ClaudeConversationError {
                #expect(error == .stopped)
            }
            #expect(sawCall)
            // stop() returns once the process group is gone: no waiting here.
            #expect(ClaudeCodeCLI.processes(in: box.project).isEmpty)
            await #expect(throws: ClaudeConversationError.stopped) { _ = try await conversation.send("more") }
        }
    }
}

/// A reader that goes away mid-turn.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ConversationCancellationTests {
    @Test func cancellingTheReaderInterruptsTheTurnAndTheNextPromptGetsItsOwnAnswer() async throws {
        let box = try TestBox(
            modelInSettings: false,
            claude: [
                Turn.text(String(repeating: "word ", count: 100), chunks: 100, delay: 0.1),
                Turn.text("The next answer."),
            ])
        defer { box.remove() }
        try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(on: ssh, options: box.options())
            let turn = try await conversation.send("Talk a lot")
            let (streamed, streaming) = AsyncStream.makeStream(of: Void.self)
            let reader = Task {
                for try await event in turn {
                    if case .textDelta = event { streaming.yield() }
                }
            }
            for await _ in streamed { break }  // the first words streamed: the turn is under way
            reader.cancel()
            _ = await reader.result
            let next = try await collect(try await conversation.send("Next"), in: conversation)
            #expect(next.result?.text == "The next answer.")
            #expect(next.result?.wasInterrupted == false)
            #expect(!next.streamedText.contains("word"))
            let file = try String(contentsOfFile: box.sessionFile(try #require(next.session?.id)), encoding: .utf8)
            #expect(file.contains("[Request interrupted by user]"))
            await conversation.stop()
        }
    }
}
