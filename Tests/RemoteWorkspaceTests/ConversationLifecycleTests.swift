import Foundation
import Platform
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import SessionHistory
import Testing

/// Resuming, failures and the session file, with the real Claude Code CLI on the test box.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ConversationLifecycleTests {
    @Test func resumeByPrefixContinueAndForkReachTheSameConversation() async throws {
        let box = try TestBox(
            modelInSettings: false,
            claude: [
                Turn.text("Noted: the number is 42."), Turn.text("It was 42."), Turn.text("Still 42."), Turn.text("Forked 42."),
            ])
        defer { box.remove() }
        try await box.server.withConnection { ssh in
            let first = try await ClaudeConversation.start(on: ssh, options: box.options())
            let events = try await collect(try await first.send("Remember the number 42"), in: first)
            let id = try #require(events.session?.id)
            await first.stop()

            // A prefix is enough, and the session's own directory is used.
            let resumed = try await ClaudeConversation.start(
                on: ssh, options: box.options(start: .resume(String(id.prefix(8))), directory: .some(nil)))
            #expect(resumed.options.directory == box.project)
            let again = try await collect(try await resumed.send("What was the number?"), in: resumed)
            #expect(again.session?.id == id)
            #expect(again.result?.text == "It was 42.")
            await resumed.stop()
            // The model got the earlier exchange as history.
            let history = "\(box.model.conversationRequests().last?["messages"] ?? "")"
            #expect(history.contains("Remember the number 42") && history.contains("Noted: the number is 42."))

            let continued = try await ClaudeConversation.start(on: ssh, options: box.options(start: .continueMostRecent))
            #expect(try await collect(try await continued.send("And now?"), in: continued).session?.id == id)
            await continued.stop()

            let forked = try await ClaudeConversation.start(on: ssh, options: box.options(start: .resume(id), fork: true))
            let fork = try await collect(try await forked.send("Fork it"), in: forked)
            let forkID = try #require(fork.session?.id)
            #expect(forkID != id)
            await forked.stop()
            #expect(FileManager.default.fileExists(atPath: box.sessionFile(forkID)))
        }
    }

    @Test func anUnknownSessionPrefixIsRefusedBeforeClaudeStarts() async throws {
        let box = try TestBox(modelInSettings: false, claude: [])
        defer { box.remove() }
        _ = try await box.server.withConnection { ssh in
            await #expect(throws: RemoteSessionError.sessionNotFound(id: "ffffffff")) {
                _ = try await ClaudeConversation.start(on: ssh, options: box.options(start: .resume("ffffffff")))
            }
        }
    }

    @Test func aBoxWithoutClaudeCodeGivesClaudeNotFound() async throws {
        let box = try TestBox(modelInSettings: false, claude: [])
        defer { box.remove() }
        var options = box.options()
        options.claudeExecutable = "claude-not-installed"
        try await box.server.withConnection { ssh in
            await #expect(throws: ClaudeConversationError.claudeNotFound(executable: "claude-not-installed")) {
                _ = try await ClaudeConversation.start(on: ssh, options: options)
            }
            await #expect(throws: ClaudeConversationError.directoryNotFound(box.project + "/missing")) {
                _ = try await ClaudeConversation.start(on: ssh, options: box.options(directory: .some(box.project + "/missing")))
            }
        }
    }

    @Test func aClaudeThatNeverAnswersTimesOutAndIsStopped() async throws {
        let box = try TestBox(modelInSettings: false, claude: [])
        defer { box.remove() }
        let silent = box.server.remoteHome + "/.local/bin/claude-silent"
        try "#!/bin/sh\nexec sleep 300\n".write(toFile: silent, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: silent)
        var options = box.options()
        options.claudeExecutable = "claude-silent"
        options.startTimeout = .seconds(1)
        _ = try await box.server.withConnection { ssh in
            await #expect(throws: ClaudeConversationError.startTimedOut(after: .seconds(1))) {
                _ = try await ClaudeConversation.start(on: ssh, options: options)
            }
        }
        #expect(ClaudeCodeCLI.processes(in: box.project).isEmpty)
    }

    @Test func anAPIErrorEndsTheTurnWithATypedErrorAndTheConversationGoesOn() async throws {
        let box = try TestBox(
            modelInSettings: false, claude: [Turn.error(529, "Overloaded"), Turn.error(500, "Internal trouble"), Turn.text("Back again.")])
        defer { box.remove() }
        try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(on: ssh, options: box.options())
            let failed = try await collect(try await conversation.send("Hello"), in: conversation)
            guard case .apiError(let status, let type, _)? = failed.errors.first else {
                Issue.record("no API error in \(failed)")
                return
            }
            #expect(status == 529 && type == "overloaded_error")
            #expect(failed.result?.isError == true)
            let second = try await collect(try await conversation.send("Hello?"), in: conversation)
            guard case .apiError(500, _, _)? = second.errors.first else {
                Issue.record("no 500 in \(second.errors)")
                return
            }
            let third = try await collect(try await conversation.send("Hello again"), in: conversation)
            #expect(third.errors.isEmpty && third.result?.text == "Back again.")
            await conversation.stop()
        }
    }

    @Test func noCredentialsOnTheBoxGivesNotLoggedIn() async throws {
        let box = try TestBox(modelInSettings: false, claude: [Turn.text("unreachable")])
        defer { box.remove() }
        try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(on: ssh, options: box.options(apiKey: nil))
            let events = try await collect(try await conversation.send("Hello"), in: conversation)
            guard case .notLoggedIn? = events.errors.first else {
                Issue.record("got \(events.errors)")
                return
            }
            #expect(box.model.conversationRequests().isEmpty)
            await conversation.stop()
        }
    }

    @Test func theSessionIsListedWhileTheConversationRuns() async throws {
        let box = try TestBox(modelInSettings: false, claude: [Turn.text("Listed soon.")])
        defer { box.remove() }
        try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(on: ssh, options: box.options())
            let events = try await collect(try await conversation.send("Please list me"), in: conversation)
            let id = try #require(events.session?.id)
            let sessions = RemoteSessions(connection: ssh, cache: nil)
            let listed = try await sessions.listSessions()
            #expect(listed.map(\.id).contains(id))
            #expect(try await sessions.findSession(String(id.prefix(6))).file.path.hasSuffix(id + ".jsonl"))
            #expect(ClaudeCodeCLI.processes(in: box.project).contains { $0.command.contains("stream-json") })
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-home-\(UUID().uuidString.prefix(6))").path
            defer { try? FileManager.default.removeItem(atPath: home) }
            let cli = try await RWSBinary.run(["sessions"] + box.server.rwsFlags + ["--json"], home: home)
            #expect(cli.status == 0 && cli.stdout.contains(id), "\(cli.stderr)")
            await conversation.stop()
        }
    }

    @Test func aDroppedConnectionStopsClaudeAndLeavesAValidSessionFile() async throws {
        let box = try TestBox(modelInSettings: false, claude: [Turn.text(String(repeating: "slow ", count: 100), chunks: 100, delay: 0.1)])
        defer { box.remove() }
        let ssh = try await box.server.connect()
        let conversation = try await ClaudeConversation.start(on: ssh, options: box.options())
        let turn = try await conversation.send("Talk slowly")
        var id: String?
        var cut = false
        do {
            for try await event in turn {
                if case .sessionStarted(let info) = event { id = info.id }
                // Once: deltas that came before the cut are still handed on after it.
                guard case .textDelta = event, id != nil, !cut else { continue }
                cut = true
                let claude = try #require(ClaudeCodeCLI.processes(in: box.project).first { $0.command.contains("stream-json") })
                let daemons = ClaudeCodeCLI.sessionDaemons(above: claude.pid)
                #expect(!daemons.isEmpty)
                for pid in daemons { try? SystemCall.kill(pid, SIGKILL) }  // cleanup after a failure: gone is fine
            }
            Issue.record("the turn ended normally")
        } catch let error as SSHError {
            guard case .connectionLost = error else {
                Issue.record("got \(error)")
                return
            }
        }
        await ssh.close()
        #expect(try await box.waitUntilNoProcess().isEmpty)
        let file = box.sessionFile(try #require(id))
        #expect(try isValidJSONL(file))
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("Talk slowly"))
    }
}
