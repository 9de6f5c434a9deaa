import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import SessionHistory
import Synchronization
import Testing

/// `ClaudeAttentionWatch`: the hook's events followed over SSH, and permission requests answered
/// through it, on OpenSSH and dropbear. The hook is run here as Claude Code runs it: its command
/// from the settings, the event's JSON on stdin.
@Suite(.timeLimit(.minutes(2))) struct ClaudeAttentionWatchTests {
    static func payload(_ event: String, session: String = "s-1", _ extra: String = "") -> String {
        #"{"session_id":"\#(session)","transcript_path":"/nowhere/\#(session).jsonl","cwd":"/home/dev/app","#
            + #""hook_event_name":"\#(event)"\#(extra)}"#
    }

    static let bash = payload(
        "PermissionRequest",
        #","tool_name":"Bash","tool_input":{"command":"npm test","description":"tests"},"tool_use_id":"toolu_1","#
            + #""permission_suggestions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"npm test"}],"#
            + #""behavior":"allow","destination":"localSettings"}]"#
    )

    @Test(arguments: ServerKind.allCases)
    func eventsArriveInOrderWithWhatEachAsksFor(kind: ServerKind) async throws {
        let box = try await TestBox.withHooksInstalled(kind)
        defer { box.remove() }
        try await box.server.withConnection { connection in
            let watch = try await box.startWatch(on: connection)
            var events = watch.makeAsyncIterator()
            for payload in [
                Self.payload("SessionStart", #","source":"startup""#), Self.payload("UserPromptSubmit", #","prompt":"Fix it\nplease""#),
                Self.payload("Notification", #","message":"Claude is waiting for your input","notification_type":"idle_prompt""#),
                Self.payload("Stop", #","last_assistant_message":"Done.\n\nAll 12 tests pass.\n""#),
                Self.payload("SessionEnd", #","reason":"other""#),
            ] {
                _ = try await box.runHook(payload, on: connection)
            }
            var kinds: [ClaudeAttentionEvent.Kind] = []
            for _ in 0..<5 { kinds.append(try #require(try await events.next()).kind) }
            #expect(
                kinds == [
                    .started(source: "startup"), .promptSubmitted(prompt: "Fix it\nplease"),
                    .waitingForInput(message: "Claude is waiting for your input"), .finished(lastLine: "All 12 tests pass."),
                    .ended(reason: "other"),
                ])
            try await watch.stop()
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aPermissionRequestWaitsForTheWatcherAndTheFirstAnswerWins(kind: ServerKind) async throws {
        let box = try await TestBox.withHooksInstalled(kind)
        defer { box.remove() }
        try await box.server.withConnection { connection in
            var waiting = try await box.waitingRequest(Self.bash, on: connection)
            let (watch, id) = (waiting.watch, waiting.id)
            #expect(waiting.event.summary == "permission: Bash(npm test)")
            #expect(waiting.request.suggestions.count == 1)
            try await watch.answer(id, with: .deny(message: "not now"))
            await #expect(throws: ClaudeHooksError.requestClosed(id: id)) { try await watch.answer(id, with: .allow) }
            var output: [UInt8] = []
            for try await chunk in waiting.hook.output { if case .stdout(let bytes) = chunk { output += bytes } }
            let decision = try JSONValue(parsing: output)
            #expect(decision["hookSpecificOutput"]?["decision"]?["behavior"]?.stringValue == "deny")
            #expect(decision["hookSpecificOutput"]?["decision"]?["message"]?.stringValue == "not now")
            #expect(try #require(try await waiting.events.next()).kind == .requestClosed(id: id, reason: .answered))
            try await watch.stop()
        }
    }

    /// A second watcher's answer can find the request still open just before the hook, done with
    /// the first answer, closes it; its link must still fail, not be told it was accepted.
    @Test(arguments: ServerKind.allCases)
    func anAnswerThatFoundTheRequestOpenWhileTheHookClosedItIsRefused(kind: ServerKind) async throws {
        let box = try await TestBox.withHooksInstalled(kind)
        defer { box.remove() }
        try await box.server.withConnection { connection in
            let waiting = try await box.waitingRequest(Self.bash, on: connection)
            let (watch, id) = (waiting.watch, waiting.id)
            try await watch.answer(id, with: .deny(message: "not now"))
            #expect(try await waiting.hook.exitStatus().isSuccess)
            // The second answer's look at the request, made before the hook removed it.
            let requestFile = box.hooksFolder + "/requests/" + id + ".json"
            #expect(!FileManager.default.fileExists(atPath: requestFile), "the hook left its request behind")
            try Data("{}\n".utf8).write(to: URL(fileURLWithPath: requestFile))
            await #expect(throws: ClaudeHooksError.requestClosed(id: id)) { try await watch.answer(id, with: .allow) }
            try await watch.stop()
        }
    }

    @Test(arguments: ServerKind.allCases)
    func withNobodyWatchingTheHookStepsAsideAtOnce(kind: ServerKind) async throws {
        let box = try await TestBox.withHooksInstalled(kind)
        defer { box.remove() }
        try await box.server.withConnection { connection in
            let started = ContinuousClock.now
            let result = try await box.runHook(Self.bash, on: connection)
            #expect(ContinuousClock.now - started < .seconds(1))
            #expect(result.status.isSuccess && result.stdout.isEmpty, "\(result)")
            let line = try String(contentsOfFile: box.hooksFolder + "/events.jsonl", encoding: .utf8)
            #expect(!line.contains("\"request\""), "\(line)")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aWatcherThatLeavesLetsTheWaitingHookGoWithinTheLease(kind: ServerKind) async throws {
        let box = try await TestBox.withHooksInstalled(kind)
        defer { box.remove() }
        try await box.server.withConnection { connection in
            let watch = try await box.startWatch(on: connection)
            var events = watch.makeAsyncIterator()
            let hook = try await box.startHook(Self.bash, on: connection)
            _ = try await events.next()
            try await watch.stop()
            let stopped = ContinuousClock.now
            _ = try await hook.exitStatus()
            let waited = ContinuousClock.now - stopped
            #expect(waited < .seconds(ClaudeHookScript.leaseSeconds + 3), "the hook waited \(waited) after the watcher left")
            let spool = try String(contentsOfFile: box.hooksFolder + "/events.jsonl", encoding: .utf8)
            #expect(spool.contains(#""closed":"unwatched""#), "\(spool)")
        }
    }

    @Test func aRequestAnsweredInClaudeCodeItselfStopsTheWait() async throws {
        let box = try await TestBox.withHooksInstalled(.default)
        defer { box.remove() }
        let transcript = box.root + "/t.jsonl"
        try Data("{\"type\":\"assistant\"}\n".utf8).write(to: URL(fileURLWithPath: transcript))
        let payload = Self.bash.replacingOccurrences(of: "/nowhere/s-1.jsonl", with: transcript)
        try await box.server.withConnection { connection in
            let watch = try await box.startWatch(on: connection)
            var events = watch.makeAsyncIterator()
            let hook = try await box.startHook(payload, on: connection)
            _ = try await events.next()
            // Another record first (not this tool's result), then the result of this tool.
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: transcript))
            handle.seekToEndOfFile()
            handle.write(Data("{\"type\":\"system\"}\n".utf8))
            try await Task.sleep(for: .milliseconds(600))
            handle.write(Data(#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_1"}]}}"#.utf8 + [10]))
            try handle.close()
            let answered = ContinuousClock.now
            _ = try await hook.exitStatus()
            #expect(ContinuousClock.now - answered < .seconds(2))
            let closing = try #require(try await events.next())
            guard case .requestClosed(let id, let reason) = closing.kind else { throw ScriptCase.Failure("\(closing)") }
            #expect(reason == .elsewhere)
            // A watcher's answer that found the request open just before: the hook's marker holds the answer's name.
            try Data("{}\n".utf8).write(to: URL(fileURLWithPath: box.hooksFolder + "/requests/" + id + ".json"))
            await #expect(throws: ClaudeHooksError.requestClosed(id: id)) { try await watch.answer(id, with: .allow) }
            try await watch.stop()
        }
    }

    @Test(arguments: ServerKind.allCases)
    func eventsOfSessionsThatReportWhileTheLinkIsDownArriveOnceAfterIt(kind: ServerKind) async throws {
        let box = try await TestBox.withHooksInstalled(kind)
        defer { box.remove() }
        let proxy = try FaultProxy(targetPort: box.server.port)
        defer { proxy.stop() }
        var configuration = try box.server.configuration(through: proxy, deadPeerTimeout: .seconds(3))
        configuration.reconnect = ReconnectPolicy(initialDelay: .milliseconds(100), maximumDelay: .milliseconds(500), jitter: 0)
        let connection = try await SSHConnection.connect(configuration)
        let watch = try await box.startWatch(on: connection)
        let seen = Mutex<[String]>([])
        let reader = Task {
            for try await event in watch {
                if case .promptSubmitted(let prompt) = event.kind { seen.withLock { $0.append(prompt) } }
            }
        }
        var expected: [String] = []
        // The box is this machine: sessions report there whether or not a link is up.
        func report(_ prompt: String) throws {
            _ = try ScriptShells.execute(
                "/bin/sh", ["-c", try box.hookCommand()], input: Array(Self.payload("UserPromptSubmit", #","prompt":"\#(prompt)""#).utf8),
                directory: box.hooksFolder)
            expected.append(prompt)
        }
        for round in 0..<3 {
            try report("before the drop \(round)")
            #expect(try await Eventually.holds(within: .seconds(30)) { seen.withLock { $0 } == expected })
            proxy.cutAll()
            try report("while down \(round)")
            try report("while down \(round), again")
            #expect(try await Eventually.holds(within: .seconds(30)) { seen.withLock { $0 } == expected })
        }
        try await watch.stop()
        _ = try? await reader.value
        await connection.close()
        #expect(seen.withLock { $0 } == expected)
        #expect(proxy.acceptedConnections == 4)
    }

    @Test(arguments: ServerKind.allCases)
    func aRotatedSpoolLosesNoEventAndRepeatsNone(kind: ServerKind) async throws {
        let box = try await TestBox.withHooksInstalled(kind)
        defer { box.remove() }
        // Nearly full: the hooks below rotate it.
        let padding = String(
            repeating: "{\"pad\":\"" + String(repeating: "x", count: 1000) + "\"}\n", count: ClaudeHookScript.spoolLimit / 1012)
        try Data(padding.utf8).write(to: URL(fileURLWithPath: box.hooksFolder + "/events.jsonl"))
        try await box.server.withConnection { connection in
            let watch = try await box.startWatch(on: connection)
            var events = watch.makeAsyncIterator()
            for number in 0..<40 {
                let hook = try await box.runHook(Self.payload("UserPromptSubmit", #","prompt":"p\#(number)""#), on: connection)
                #expect(hook.status == .exited(0), "hook p\(number): \(hook.stderrText)")
            }
            var prompts: [String] = []
            let deadline = ContinuousClock.now + .seconds(30)
            let stopper = Task {
                try await Task.sleep(until: deadline)
                try await watch.stop()
            }
            while prompts.count < 40, let event = try await events.next() {
                if case .promptSubmitted(let prompt) = event.kind { prompts.append(prompt) }
            }
            stopper.cancel()
            #expect(prompts == (0..<40).map { "p\($0)" }, "the spool holds: \(box.promptsInSpool())")
            #expect(FileManager.default.fileExists(atPath: box.hooksFolder + "/events.jsonl.1"))
            try await watch.stop()
        }
    }
}
