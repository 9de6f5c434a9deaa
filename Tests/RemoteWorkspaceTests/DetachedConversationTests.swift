import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import Testing

/// A detached conversation outlives its link: the real Claude Code CLI (scripted model) runs on
/// the box apart from the SSH channel, a cut or black-holed link leaves the turn running, and the
/// conversation attaches again and delivers what it missed, each event once.
@Suite(.timeLimit(.minutes(3))) struct DetachedConversationTests {
    /// A connection through `proxy` that reconnects.
    static func connect(_ box: TestBox, through proxy: FaultProxy) async throws -> SSHConnection {
        var configuration = try box.server.configuration(through: proxy, deadPeerTimeout: .seconds(5))
        configuration.reconnect = ReconnectPolicy(waitForConnection: .seconds(60))
        configuration.keepaliveInterval = .seconds(1)
        return try await SSHConnection.connect(configuration)
    }

    static func detached(
        _ box: TestBox, mode: ClaudePermissionMode? = nil, idle: Duration = .seconds(60)
    )
        -> ClaudeConversationOptions
    {
        var options = box.options(mode: mode)
        options.detached = ClaudeDetachedPolicy(idleTimeout: idle)
        return options
    }

    /// The conversations folder on the box (a local path: the box is this machine).
    static func folder(_ box: TestBox) -> String { box.server.remoteHome + "/.rws/conversations" }

    @Test(arguments: ServerKind.allCases)
    func aCutWhileAToolRunsLetsTheToolFinishAndTheRestOfTheTurnArrivesOnce(kind: ServerKind) async throws {
        // The tool waits for the test's go, given once the link is cut: it finishes while nobody is attached.
        let tool = "until [ -e go ]; do sleep 0.2; done; echo done > tool-ran.txt"
        let box = try TestBox(kind, modelInSettings: false, claude: [Turn.bash(tool), Turn.text("The tool finished.")])
        defer { box.remove() }
        let proxy = try FaultProxy(targetPort: box.server.port)
        defer { proxy.stop() }
        let ssh = try await Self.connect(box, through: proxy)
        let conversation = try await ClaudeConversation.start(on: ssh, options: Self.detached(box, mode: .bypassPermissions))
        let id = try #require(conversation.detachedID)
        #expect(FileManager.default.fileExists(atPath: Self.folder(box) + "/" + id + "/out"))
        let events = try await collect(try await conversation.send("Run it"), in: conversation) { _ in
            .allow
        } onEvent: { event in
            guard case .toolCall = event else { return }
            let running = try await box.waitUntilRunning("sleep 0.2")
            #expect(running)
            proxy.cutAll()
            _ = FileManager.default.createFile(atPath: box.project + "/go", contents: nil)
        }
        let link = events.filter { if case .linkLost = $0 { true } else if case .reattached = $0 { true } else { false } }
        #expect(link.count == 2, "\(link)")
        #expect(FileManager.default.fileExists(atPath: box.project + "/tool-ran.txt"))
        #expect(events.toolCalls.count == 1)
        #expect(events.toolResults.count == 1)
        #expect(events.streamedText == "Running it.The tool finished.")
        #expect(events.filter { if case .result = $0 { true } else { false } }.count == 1)
        #expect(events.result?.isError == false)
        await conversation.stop()
        #expect(try await box.waitUntilNoProcess().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: Self.folder(box)).isEmpty)
        await ssh.close()
    }

    @Test func aPermissionQuestionRaisedWhileTheLinkIsDownIsAskedAfterTheReattachAndAnswered() async throws {
        let slow: [String: Any] = [
            "blocks": [
                ["type": "text", "text": "Let me run it, slowly.", "chunks": 6],
                ["type": "tool_use", "name": "Bash", "input": ["command": "echo yes > answered.txt", "description": "test command"]],
            ],
            "chunk_delay": 0.3,
        ]
        let box = try TestBox(modelInSettings: false, claude: [slow, Turn.text("Answered and ran.")])
        defer { box.remove() }
        let proxy = try FaultProxy(targetPort: box.server.port)
        defer { proxy.stop() }
        let ssh = try await Self.connect(box, through: proxy)
        let conversation = try await ClaudeConversation.start(on: ssh, options: Self.detached(box))
        let out = Self.folder(box) + "/" + (conversation.detachedID ?? "") + "/out"
        var holed = false
        var questions = 0
        let events = try await collect(
            try await conversation.send("Run it"), in: conversation,
            decide: { _ in
                questions += 1
                return .allow
            },
            onEvent: { event in
                guard case .textDelta = event, !holed else { return }
                holed = true
                proxy.setBlackHole(true)
                // The question is raised on the box while nothing reaches this client.
                try await Self.waitFor("can_use_tool", in: out)
                proxy.setBlackHole(false)
                proxy.cutAll()
            })
        #expect(questions == 1)
        #expect(events.permissionRequests.count == 1)
        #expect(FileManager.default.fileExists(atPath: box.project + "/answered.txt"))
        #expect(events.streamedText == "Let me run it, slowly.Answered and ran.")
        #expect(events.result?.isError == false)
        await conversation.stop()
        #expect(try await box.waitUntilNoProcess().isEmpty)
        await ssh.close()
    }

    @Test func aSecondClientTakesTheConversationOverAndSeesItFromTheStart() async throws {
        // 10 s of streaming: the takeover (a second connection and an attach) must come while the
        // turn still runs, also on a box busy enough that it takes seconds (3 s were too few once).
        let box = try TestBox(modelInSettings: false, claude: [Turn.text(String(repeating: "word ", count: 100), chunks: 100, delay: 0.1)])
        defer { box.remove() }
        let first = try await box.server.connect()
        let conversation = try await ClaudeConversation.start(on: first, options: Self.detached(box))
        let id = try #require(conversation.detachedID)
        let reading = Task { try await collect(try await conversation.send("Talk"), in: conversation) }
        try await Self.waitFor("text_delta", in: Self.folder(box) + "/" + id + "/out")
        let second = try await box.server.connect()
        let (taken, replay) = try await ClaudeConversation.attach(id, on: second)
        var events: [ClaudeEvent] = []
        for try await event in replay { events.append(event) }
        await #expect(throws: ClaudeConversationError.takenOver(id: id)) { _ = try await reading.value }
        #expect(events.streamedText == String(repeating: "word ", count: 100))
        #expect(events.session != nil)
        #expect(events.result?.isError == false)
        let listed = try await ClaudeConversation.listDetached(on: second)
        #expect(listed.map(\.id) == [id] && listed.first?.state == .attached, "\(listed)")
        await taken.stop()
        #expect(try await box.waitUntilNoProcess().isEmpty)
        #expect(try await ClaudeConversation.listDetached(on: second).isEmpty)
        await first.close()
        await second.close()
    }

    @Test func aConversationNoClientComesBackToEndsAfterItsIdleTimeAndLeavesNoFiles() async throws {
        let box = try TestBox(modelInSettings: false, claude: [Turn.bash("tail -f /dev/null")])
        defer { box.remove() }
        try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(
                on: ssh, options: Self.detached(box, mode: .bypassPermissions, idle: .seconds(5)))
            let id = try #require(conversation.detachedID)
            let reading = Task { try await collect(try await conversation.send("Wait forever"), in: conversation) }
            #expect(try await box.waitUntilRunning("tail -f /dev/null"))
            await conversation.detach()
            await #expect(throws: ClaudeConversationError.detached(id: id)) { _ = try await reading.value }
            #expect(try await ClaudeConversation.listDetached(on: ssh).map(\.state) == [.detached])
            #expect(try await box.waitUntilNoProcess(timeout: .seconds(30)).isEmpty)
            let folder = Self.folder(box) + "/" + id
            #expect(
                try await Eventually.holds(within: .seconds(20), every: .milliseconds(200)) {
                    !FileManager.default.fileExists(atPath: folder)
                })
            // Interrupted before it was ended: the session file says so in Claude Code's own words.
            let session = try String(contentsOfFile: box.sessionFile(try #require(conversation.sessionID)), encoding: .utf8)
            #expect(session.contains("[Request interrupted by user"), "\(session.suffix(2000))")
            await #expect(throws: ClaudeConversationError.detachedNotFound(id: id)) {
                _ = try await ClaudeConversation.attach(id, on: ssh)
            }
        }
    }

    /// Waits until the file at `path` holds `text`.
    static func waitFor(_ text: String, in path: String, timeout: Duration = .seconds(20)) async throws {
        try await Eventually.holds(within: timeout, every: .milliseconds(100)) {
            ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").contains(text)
        }
    }
}

extension DetachedConversationTests {
    /// 30 s of black hole under RWS_SOAK=full (scripts/soak-tests), 12 s in the suite: either
    /// way longer than the dead-peer timeout (5 s), so the link is lost and attached again.
    @Test func aBlackHoleDuringStreamingLosesNoEventAndRepeatsNone() async throws {
        let words = (1...60).map { "w\($0) " }.joined()
        let box = try TestBox(
            modelInSettings: false, claude: [["blocks": [["type": "text", "text": words, "chunks": 60]], "chunk_delay": 0.2]])
        defer { box.remove() }
        let proxy = try FaultProxy(targetPort: box.server.port)
        defer { proxy.stop() }
        let ssh = try await Self.connect(box, through: proxy)
        let conversation = try await ClaudeConversation.start(on: ssh, options: Self.detached(box))
        var holed = false
        let events = try await collect(try await conversation.send("Count"), in: conversation) { _ in
            .allow
        } onEvent: { event in
            guard case .textDelta = event, !holed else { return }
            holed = true
            proxy.setBlackHole(true)
            try await Task.sleep(for: SoakLength.duration(full: .seconds(30), sample: .seconds(12)))
            proxy.setBlackHole(false)
        }
        #expect(events.contains { if case .linkLost = $0 { true } else { false } })
        #expect(events.streamedText == words)
        #expect(events.result?.isError == false)
        await conversation.stop()
        #expect(try await box.waitUntilNoProcess().isEmpty)
        await ssh.close()
    }
}

extension DetachedConversationTests {
    /// Whoever removes `~/.rws/conversations/ID` under a running conversation (a cleanup, a user),
    /// the keeper still ends Claude Code after the idle time: nothing runs on unseen.
    @Test func aConversationWhoseFolderIsRemovedStillEndsAfterItsIdleTime() async throws {
        let box = try TestBox(modelInSettings: false, claude: [Turn.bash("tail -f /dev/null")])
        defer { box.remove() }
        try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(
                on: ssh, options: Self.detached(box, mode: .bypassPermissions, idle: .seconds(2)))
            let id = try #require(conversation.detachedID)
            let reading = Task { try await collect(try await conversation.send("Wait forever"), in: conversation) }
            #expect(try await box.waitUntilRunning("tail -f /dev/null"))
            // The keeper looks once a second; if a loaded machine kept it from seeing the client,
            // its minute of grace before a first attach applies (the marker went with the folder).
            try await Task.sleep(for: .seconds(3))
            await conversation.detach()
            _ = try? await reading.value
            try FileManager.default.removeItem(atPath: Self.folder(box) + "/" + id)
            #expect(try await box.waitUntilNoProcess(timeout: .seconds(90)).isEmpty)
        }
    }
}
