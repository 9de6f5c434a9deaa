import Foundation
import Platform
import RWSTestSupport
import SSHClient
import SessionHistory
import Synchronization
import Testing

/// `rws hooks` and `rws watch` as a person runs them.
@Suite(.timeLimit(.minutes(2))) struct AttentionCommandTests {
    @Test(arguments: ServerKind.allCases)
    func statusSaysWhatIsMissingUntilInstallAndAfterRemove(kind: ServerKind) async throws {
        let box = try TestBox(kind)
        defer { box.remove() }
        let (server, claude, home) = (box.server, box.claudeDirectory, box.localHome)
        let flags = server.rwsFlags + ["--claude-dir", claude]

        let before = await InProcessRWS.run(["hooks", "status"] + flags, home: home)
        #expect(before.status == 3 && before.stdout.contains("not installed: run rws hooks install"), "\(before)")
        let install = await InProcessRWS.run(["hooks", "install"] + flags, home: home)
        #expect(install.status == 0 && install.stdout.hasPrefix("installed: \(claude)/settings.json"), "\(install)")
        #expect(install.stderr.contains("running ones need a restart"))
        let status = await InProcessRWS.run(["hooks", "status", "--json"] + flags, home: home)
        let parsed = try JSONValue(parsing: status.stdout)
        #expect(status.status == 0 && parsed["complete"]?.boolValue == true && parsed["installed"]?.arrayValue?.count == 6, "\(status)")
        let again = await InProcessRWS.run(["hooks", "install"] + flags, home: home)
        #expect(again.stdout.hasPrefix("unchanged:"), "\(again)")
        let remove = await InProcessRWS.run(["hooks", "remove"] + flags, home: home)
        #expect(remove.status == 0 && remove.stdout.hasPrefix("removed:"), "\(remove)")
        #expect(!FileManager.default.fileExists(atPath: claude + "/settings.json"))
    }

    @Test func watchWithoutTheHooksInfersEventsFromTheSessionFilesAndSaysSo() async throws {
        let box = try TestBox(.default)
        defer { box.remove() }
        let (outcome, id) = try await Self.watchUntilATurnEnds(box)
        try Self.expectTheTurnsEndInferred(outcome, id: id)
    }

    /// What ``watchUntilATurnEnds(_:)`` must have printed: the turn's end, inferred, and why.
    static func expectTheTurnsEndInferred(_ outcome: RWSBinary.Outcome, id: String) throws {
        #expect(outcome.status == 130, "\(outcome)")
        #expect(outcome.stderr.contains("hooks are not installed") && outcome.stderr.contains("rws hooks install"), "\(outcome.stderr)")
        let event = try JSONValue(parsing: outcome.stdout.split(separator: "\n").first.map(String.init) ?? "")
        #expect(event["type"]?.stringValue == "finished" && event["inferred"]?.boolValue == true && event["session"]?.stringValue == id)
        #expect(event["title"]?.stringValue == "Fix the flaky test")
    }

    /// Runs `rws watch --json` on `box`, without hooks, while a session's turn ends once the
    /// watch has made its first listing; Ctrl+C once it printed "finished" (or after 30 s).
    /// Returns what it printed and the session's id.
    static func watchUntilATurnEnds(_ box: TestBox) async throws -> (outcome: RWSBinary.Outcome, id: String) {
        let (server, claude, home) = (box.server, box.claudeDirectory, box.localHome)
        let id = "77777777-0000-0000-0000-000000000007"
        let folder = claude + "/projects/-home-dev-app"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/" + id + ".jsonl"
        let envelope = #""sessionId":"\#(id)","cwd":"/home/dev/app","timestamp":"2026-11-25T10:00:00.000Z""#
        try Data((#"{"type":"user","uuid":"u1",\#(envelope),"message":{"role":"user","content":"Fix the flaky test"}}"# + "\n").utf8)
            .write(to: URL(fileURLWithPath: file))
        let cache = home + "/.cache/rws"
        // Once the first listing (the baseline) was made and cached, the turn ends.
        DispatchQueue.global().async {
            let deadline = Date().addingTimeInterval(20)
            while (try? FileManager.default.contentsOfDirectory(atPath: cache))?.isEmpty ?? true, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.05)
            }
            let answer =
                #"{"type":"assistant","uuid":"a1","parentUuid":"u1",\#(envelope),"message":{"id":"m1","role":"assistant","#
                + #""content":[{"type":"text","text":"Fixed."}],"stop_reason":"end_turn"}}"#
            if let handle = FileHandle(forWritingAtPath: file) {
                handle.seekToEndOfFile()
                handle.write(Data((answer + "\n").utf8))
                try? handle.close()
            }
        }
        let outcome = try await RWSBinary.run(
            ["watch", "--json"] + server.rwsFlags + ["--claude-dir", claude], home: home, until: { $0.contains("finished") },
            within: .seconds(30)
        ) { child in try SystemCall.kill(child, SIGINT) }
        return (outcome, id)
    }

    @Test(arguments: ServerKind.allCases)
    func watchPrintsEachEventAsJSONRunsTheExecCommandAndEndsOnCtrlC(kind: ServerKind) async throws {
        let box = try TestBox(kind)
        defer { box.remove() }
        let (server, claude, home) = (box.server, box.claudeDirectory, box.localHome)
        let flags = server.rwsFlags + ["--claude-dir", claude]
        #expect(try await RWSBinary.run(["hooks", "install"] + flags, home: home).status == 0)
        let execLog = claude + "/exec.log"
        let hook = claude + "/rws/hook.sh"
        // Claude Code's side: once the watch holds the lease, two sessions report.
        DispatchQueue.global().async {
            let deadline = Date().addingTimeInterval(20)
            while !FileManager.default.fileExists(atPath: claude + "/rws/lease"), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            for payload in [
                #"{"session_id":"s-a","cwd":"/home/dev/app","hook_event_name":"Notification","#
                    + #""message":"Claude is waiting for your input","notification_type":"idle_prompt"}"#,
                #"{"session_id":"s-b","cwd":"/home/dev/api","hook_event_name":"Stop","last_assistant_message":"Done.\nTests pass."}"#,
            ] {
                _ = try? ScriptShells.execute("/bin/sh", [hook, claude + "/rws"], input: Array(payload.utf8), directory: claude)
            }
        }
        let outcome = try await RWSBinary.run(
            ["watch", "--json", "--exec", "printf '%s|%s\\n' \"$RWS_EVENT\" \"$RWS_SUMMARY\" >> '\(execLog)'"] + flags, home: home,
            until: { $0.split(separator: "\n").count >= 2 }, within: .seconds(30)
        ) { child in
            Thread.sleep(forTimeInterval: 0.3)  // the --exec of the last event
            try SystemCall.kill(child, SIGINT)
        }
        #expect(outcome.status == 130, "\(outcome)")
        let events = try outcome.stdout.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        #expect(events.map { $0["type"]?.stringValue } == ["waiting", "finished"], "\(outcome.stdout)")
        #expect(events.map { $0["summary"]?.stringValue } == ["waiting for your input", "finished: Tests pass."])
        #expect(events.map { $0["directory"]?.stringValue } == ["/home/dev/app", "/home/dev/api"])
        let log = try String(contentsOfFile: execLog, encoding: .utf8)
        #expect(log == "waiting|waiting for your input\nfinished|finished: Tests pass.\n", "\(log)")
    }

    /// Claude Code's hooks carry the session's permission mode: where it means no question will
    /// come, the watch says so once for the session, and JSON carries the mode on every event.
    @Test func watchSaysOnceThatASessionsModeAsksNoQuestions() async throws {
        let box = try TestBox(.default)
        defer { box.remove() }
        let (server, claude, home) = (box.server, box.claudeDirectory, box.localHome)
        let flags = server.rwsFlags + ["--claude-dir", claude]
        #expect(try await RWSBinary.run(["hooks", "install"] + flags, home: home).status == 0)
        let hook = claude + "/rws/hook.sh"
        DispatchQueue.global().async {
            let deadline = Date().addingTimeInterval(20)
            while !FileManager.default.fileExists(atPath: claude + "/rws/lease"), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            let session = #""session_id":"s-m","cwd":"/home/dev/app","permission_mode":"bypassPermissions""#
            for payload in [
                #"{\#(session),"hook_event_name":"UserPromptSubmit","prompt":"Tidy up"}"#,
                #"{\#(session),"hook_event_name":"Stop","last_assistant_message":"Tidied."}"#,
            ] {
                _ = try? ScriptShells.execute("/bin/sh", [hook, claude + "/rws"], input: Array(payload.utf8), directory: claude)
            }
        }
        let outcome = try await RWSBinary.run(
            ["watch"] + flags, home: home, until: { $0.contains("finished") }, within: .seconds(30)
        ) { child in try SystemCall.kill(child, SIGINT) }
        #expect(outcome.status == 130, "\(outcome)")
        let notes = outcome.stdout.split(separator: "\n").filter {
            $0.hasSuffix("app · Tidy up  permission mode bypassPermissions: every tool runs without a permission question")
        }
        #expect(notes.count == 1, "\(outcome.stdout)")
    }

    @Test(arguments: ServerKind.allCases)
    func watchAtATerminalAsksAndItsAnswerIsTheOneClaudeCodeGets(kind: ServerKind) async throws {
        let box = try TestBox(kind)
        defer { box.remove() }
        let (server, claude, home) = (box.server, box.claudeDirectory, box.localHome)
        let flags = server.rwsFlags + ["--claude-dir", claude]
        #expect(await InProcessRWS.run(["hooks", "install"] + flags, home: home).status == 0)
        let tmux = try Tmux.start(home: home)
        defer { tmux.stop() }
        try await tmux.waitForLastLine(Tmux.localPrompt)
        try tmux.type(try ShellQuoting.commandLine([RWSBinary.path, "watch"] + flags))
        try await tmux.wait(for: "rws: watching", within: .seconds(20))

        // Two requests at once: the second is asked after the first; the first gets "y".
        let hook = Self.startHook(claude, #","tool_name":"Bash","tool_input":{"command":"npm test","description":"Run the tests"}"#)
        try await tmux.wait(for: "Allow Bash: npm test? [y]es / [N]o:", within: .seconds(10))
        #expect(try tmux.screen().contains("Run the tests"))
        let second = Self.startHook(claude, #","tool_name":"Bash","tool_input":{"command":"rm -rf build"}"#)
        try await Task.sleep(for: .milliseconds(500))
        try tmux.type("y")
        let answer = try await Self.output(of: hook)
        #expect(answer.contains(#""behavior":"allow""#), "\(answer)")
        try await tmux.wait(for: "Allow Bash: rm -rf build? [y]es / [N]o:", within: .seconds(10))
        try tmux.type("")
        let denial = try await Self.output(of: second)
        #expect(denial.contains(#""behavior":"deny""#), "\(denial)")
        try tmux.press("C-c")
        try await tmux.wait(for: "the shell's prompt after rws") { screen in
            screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.hasSuffix("local$") == true
        }
    }

    @Test func aHeadlessRwsAskReportsToTheWatchThroughTheUsersOwnSettings() async throws {
        let box = try TestBox(claude: [["blocks": [["type": "text", "text": "Looked at it.\nAll done."]]]])
        defer { box.remove() }
        // The box's settings hold the model's environment already: install merges into them.
        let install = await InProcessRWS.run(["hooks", "install"] + box.server.rwsFlags, home: box.localHome)
        #expect(install.status == 0, "\(install)")
        let settings = try JSONValue(parsing: try Data(contentsOf: URL(fileURLWithPath: box.server.remoteHome + "/.claude/settings.json")))
        #expect(settings["env"]?["ANTHROPIC_BASE_URL"] != nil && settings["hooks"]?["Stop"] != nil)
        let lease = box.server.remoteHome + "/.claude/rws/lease"
        let asked = HookRun()
        Task {
            _ = try? await Eventually.holds(within: .seconds(20)) { FileManager.default.fileExists(atPath: lease) }
            let outcome = try? await RWSBinary.run(
                ["ask"] + box.server.rwsFlags + ["--permission-mode", "default", "app", "What is here?"], home: box.localHome)
            asked.output.withLock { $0 = outcome.map { "\($0.status) \($0.stdout)" } ?? "rws ask did not run" }
        }
        let watch = try await RWSBinary.run(
            ["watch", "--json", "--no-answer"] + box.server.rwsFlags, home: box.localHome, until: { $0.contains("\"finished\"") },
            within: .seconds(60)
        ) { child in try SystemCall.kill(child, SIGINT) }
        let events = watch.stdout.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
        // SessionEnd may come before the watch is stopped.
        #expect(Array(events.map { $0["type"]?.stringValue ?? "" }.prefix(3)) == ["started", "prompt", "finished"], "\(watch)")
        let finished = events.first { $0["type"]?.stringValue == "finished" }
        #expect(finished?["summary"]?.stringValue == "finished: All done.")
        #expect(finished?["directory"]?.stringValue == box.project)
        #expect(try await Self.output(of: asked).hasPrefix("0 "))
    }

    /// Runs the installed hook with a PermissionRequest in the background, as Claude Code does.
    static func startHook(_ claude: String, _ extra: String) -> HookRun {
        let payload = #"{"session_id":"s-q","cwd":"/home/dev/app","hook_event_name":"PermissionRequest""# + extra + "}"
        let hook = HookRun()
        DispatchQueue.global().async {
            let run = try? ScriptShells.execute(
                "/bin/sh", [claude + "/rws/hook.sh", claude + "/rws"], input: Array(payload.utf8), directory: claude, timeout: .seconds(60))
            hook.output.withLock { $0 = run?.stdoutText ?? "the hook failed to run" }
        }
        return hook
    }

    /// What a hook run in the background printed, once it ended.
    final class HookRun: Sendable {
        let output = Mutex<String?>(nil)
    }

    /// What the hook printed, once it ended (within 20 seconds).
    static func output(of hook: HookRun) async throws -> String {
        guard let output = try await Eventually.value(within: .seconds(20), { hook.output.withLock { $0 } }) else {
            throw ScriptCase.Failure("the hook did not end")
        }
        return output
    }
}
