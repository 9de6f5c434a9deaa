import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import SessionHistory
import Testing

/// The real Claude Code CLI, its interactive UI started by hand in a tmux on the box (the test box
/// is this machine), with rws's hooks installed by rws: what it asks shows up in a watch, and an
/// answer given through rws is the one Claude Code acts on. OpenSSH and dropbear.
@Suite(.serialized, .timeLimit(.minutes(3))) struct AttentionClaudeCodeTests {
    static var turns: [[String: Any]] {
        [
            [
                "blocks": [
                    ["type": "tool_use", "name": "Bash", "input": ["command": "echo yes > asked.txt", "description": "make asked.txt"]]
                ]
            ],
            ["blocks": [["type": "text", "text": "Here is what I did.\nasked.txt is in place."]]],
        ]
    }

    @Test(arguments: ServerKind.allCases)
    func aPermissionAllowedThroughRwsRunsTheToolAndTheTurnsEndIsReported(kind: ServerKind) async throws {
        let session = try await InteractiveClaude.start(kind, turns: Self.turns)
        defer { session.stop() }
        try await session.box.server.withConnection { connection in
            let watch = try await session.box.startWatch(on: connection)
            var events = watch.makeAsyncIterator()
            try session.send("Make asked.txt")
            let request = try await Self.nextRequest(&events)
            #expect(request.toolName == "Bash" && request.inputSummary == "echo yes > asked.txt")
            let id = try #require(request.id, "the hook did not wait for the watcher")
            try await watch.answer(id, with: .allow)
            let (finished, mode) = try await Self.next(&events) { event -> (String, String?)? in
                if case .finished(let line) = event.kind { return (line, event.permissionMode) }
                return nil
            }
            #expect(finished == "asked.txt is in place.")
            #expect(mode == "default", "the hook's permission_mode")
            #expect(FileManager.default.fileExists(atPath: session.project + "/asked.txt"))
            try await watch.stop()
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aPermissionDeniedThroughRwsGivesClaudeCodeTheReason(kind: ServerKind) async throws {
        let session = try await InteractiveClaude.start(kind, turns: Self.turns)
        defer { session.stop() }
        try await session.box.server.withConnection { connection in
            let watch = try await session.box.startWatch(on: connection)
            var events = watch.makeAsyncIterator()
            try session.send("Make asked.txt")
            let request = try await Self.nextRequest(&events)
            try await watch.answer(try #require(request.id), with: .deny(message: "Not on a Friday, says rws."))
            _ = try await Self.next(&events) { event -> Bool? in
                if case .finished = event.kind { return true }
                return nil
            }
            #expect(!FileManager.default.fileExists(atPath: session.project + "/asked.txt"))
            let sent = session.model.conversationRequests().last.map { String(describing: $0) } ?? ""
            #expect(sent.contains("Not on a Friday, says rws."))
            try await watch.stop()
        }
    }

    @Test(arguments: ServerKind.allCases)
    func withNobodyWatchingClaudeCodeShowsItsOwnDialog(kind: ServerKind) async throws {
        let session = try await InteractiveClaude.start(kind, turns: Self.turns)
        defer { session.stop() }
        try session.send("Make asked.txt")
        try await session.tmux.wait(for: "Do you want to proceed?", within: .seconds(30))
        // "Yes" is preselected; a key that came before the dialog took input is pressed again.
        let deadline = ContinuousClock.now + .seconds(30)
        while !(try session.tmux.screen()).contains("asked.txt is in place."), ContinuousClock.now < deadline {
            if try session.tmux.screen().contains("Do you want to proceed?") { try session.tmux.press("Enter") }
            try await Task.sleep(for: .seconds(1))
        }
        try await session.tmux.wait(for: "asked.txt is in place.", within: .seconds(5))
        #expect(FileManager.default.fileExists(atPath: session.project + "/asked.txt"))
        let spool = try String(contentsOfFile: session.box.hooksFolder + "/events.jsonl", encoding: .utf8)
        #expect(spool.contains(#""hook_event_name":"PermissionRequest""#) && !spool.contains(#""request":"#), "\(spool)")
    }

    @Test(arguments: ServerKind.allCases)
    func aRequestAnsweredInClaudeCodesOwnDialogClosesForTheWatchWithinASecond(kind: ServerKind) async throws {
        let session = try await InteractiveClaude.start(kind, turns: Self.turns)
        defer { session.stop() }
        try await session.box.server.withConnection { connection in
            let watch = try await session.box.startWatch(on: connection)
            var events = watch.makeAsyncIterator()
            try session.send("Make asked.txt")
            let request = try await Self.nextRequest(&events)
            let id = try #require(request.id, "the hook did not wait for the watcher")
            try await session.tmux.wait(for: "Do you want to proceed?", within: .seconds(30))
            // "Yes" is preselected; a key that came before the dialog took input is pressed again.
            var answered = ContinuousClock.now
            let deadline = answered + .seconds(30)
            while try session.tmux.screen().contains("Do you want to proceed?"), ContinuousClock.now < deadline {
                answered = ContinuousClock.now
                try session.tmux.press("Enter")
                try await Task.sleep(for: .milliseconds(300))
            }
            let reason = try await Self.next(&events) { event -> ClaudeAttentionRequest.Closing? in
                if case .requestClosed(id, let reason) = event.kind { return reason }
                return nil
            }
            #expect(ContinuousClock.now - answered < .seconds(1))
            try await session.tmux.wait(for: "asked.txt is in place.", within: .seconds(30))
            // Claude Code's dialog leaves the hook running: the tool's result in the transcript tells it.
            #expect(reason == .elsewhere)
            try await watch.stop()
        }
    }

    /// The first permission request, within 30 seconds.
    static func nextRequest(_ events: inout ClaudeAttentionWatch.Iterator) async throws -> ClaudeAttentionRequest {
        try await next(&events) { event -> ClaudeAttentionRequest? in
            if case .permissionRequested(let request) = event.kind { return request }
            return nil
        }
    }

    /// The first event that `pick` maps to a value, within 30 seconds.
    static func next<T>(
        _ events: inout ClaudeAttentionWatch.Iterator, _ pick: (ClaudeAttentionEvent) -> T?
    ) async throws -> T {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            guard let event = try await events.next() else { break }
            if let value = pick(event) { return value }
        }
        throw ScriptCase.Failure("the watch never brought the event")
    }
}

/// Claude Code's interactive UI in a tmux, in a project of the box, its data in a sandbox folder
/// that has rws's hooks, talking to a scripted model.
struct InteractiveClaude {
    let box: TestBox
    let model: ScriptedModelServer
    let tmux: Tmux
    let project: String

    static func start(_ kind: ServerKind, turns: [[String: Any]]) async throws -> InteractiveClaude {
        let program = try ClaudeCodeCLI.require()
        let box = try await TestBox.withHooksInstalled(kind)
        let project = box.root + "/app"
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        try box.finishClaudeOnboarding(trusting: project, in: box.claudeDirectory)
        let model = try ScriptedModelServer(turns: turns)
        var environment = ClaudeCodeCLI.environment(for: model)
        environment["CLAUDE_CONFIG_DIR"] = box.claudeDirectory
        let tmux = try Tmux.start(home: box.server.remoteHome, columns: 150, rows: 45)
        let session = InteractiveClaude(box: box, model: model, tmux: tmux, project: project)
        do {
            try await tmux.waitForLastLine(Tmux.localPrompt)
            let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            try tmux.type(
                "cd " + (try ShellQuoting.quote(project)) + " && "
                    + (try ShellQuoting.commandLine(["env"] + assignments + [program, "--permission-mode", "default"])))
            try await tmux.wait(for: "? for shortcuts", within: .seconds(30))
        } catch {
            session.stop()
            throw error
        }
        return session
    }

    /// Types a prompt and sends it.
    func send(_ prompt: String) throws {
        try tmux.type(prompt, enter: false)
        try tmux.press("Enter")
    }

    func stop() {
        tmux.stop()
        model.stop()
        box.remove()
    }
}
