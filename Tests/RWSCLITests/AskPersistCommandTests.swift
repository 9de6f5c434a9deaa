import Foundation
import Platform
import RWSTestSupport
import SSHClient
import Testing

/// `rws ask --persist` keeps the turn running on the box through a lost link, and `--attach`,
/// `--stop`, `--list-detached` reach such a conversation from another process (the real Claude
/// Code CLI, scripted model).
@Suite(.timeLimit(.minutes(2))) struct AskPersistCommandTests {
    /// The conversations folder on the box (a local path: the box is this machine).
    static func folder(_ box: TestBox) -> String { box.server.remoteHome + "/.rws/conversations" }

    /// Waits until `condition` holds or 20 s pass, looking every 100 ms.
    static func wait(until condition: () async throws -> Bool) async throws -> Bool {
        try await Eventually.holds(within: .seconds(20), every: .milliseconds(100), condition)
    }

    /// A model turn that says "Running it." and calls Bash with `command`.
    static func bash(_ command: String) -> [String: Any] {
        [
            "blocks": [
                ["type": "text", "text": "Running it.", "chunks": 2],
                ["type": "tool_use", "name": "Bash", "input": ["command": command, "description": "test command"]],
            ]
        ]
    }

    static func running(_ box: TestBox, _ command: String) -> Bool {
        ClaudeCodeCLI.processes(in: box.project).contains { $0.command.contains(command) }
    }

    @Test(arguments: ServerKind.allCases)
    func aCutLinkLeavesTheTurnRunningAndRwsShowsTheRestOnce(kind: ServerKind) async throws {
        try await Self.expectACutLinkToLeaveTheTurnRunning(kind)
    }

    /// A turn whose tool waits for a file; the link is cut while it waits, then the file appears:
    /// rws reattaches, shows the rest once, and leaves neither Claude Code nor its folder behind.
    static func expectACutLinkToLeaveTheTurnRunning(_ kind: ServerKind) async throws {
        let tool = "until [ -e go ]; do sleep 0.2; done; echo done > tool-ran.txt"
        let box = try TestBox(kind, claude: [Self.bash(tool), ["blocks": [["type": "text", "text": "The tool finished."]]]])
        defer { box.remove() }
        let proxy = try FaultProxy(targetPort: box.server.port)
        defer { proxy.stop() }
        let arguments =
            ["ask"] + (try box.server.rwsFlags(through: proxy)) + ["--persist", "app", "Run it", "--permission-mode", "bypassPermissions"]
        let outcome = try await RWSBinary.run(arguments, home: box.localHome, until: { $0.contains("Running it.") }, within: .seconds(60)) {
            _ in
            let deadline = ContinuousClock.now + .seconds(20)  // on rws's waiting thread: it may block
            while !Self.running(box, "sleep 0.2"), ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.1) }
            proxy.cutAll()
            _ = FileManager.default.createFile(atPath: box.project + "/go", contents: nil)
        }
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.components(separatedBy: "Running it.").count == 2, "\(outcome.stdout)")
        #expect(outcome.stdout.components(separatedBy: "The tool finished.").count == 2, "\(outcome.stdout)")
        #expect(outcome.stderr.contains("runs detached on the box (rws ask --attach "), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("link lost") && outcome.stderr.contains("reattached"), "\(outcome.stderr)")
        // The process that matters is Claude Code, not rws's own follower on the box.
        #expect(!outcome.stderr.contains("kill -- -") && !outcome.stderr.contains("may still be running"), "\(outcome.stderr)")
        #expect(outcome.stderr.components(separatedBy: "⏺ Bash").count == 2, "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: box.project + "/tool-ran.txt"))
        #expect(try await Self.wait { ClaudeCodeCLI.processes(in: box.project).isEmpty })
        #expect(try await Self.wait { try FileManager.default.contentsOfDirectory(atPath: Self.folder(box)).isEmpty })
    }

    @Test func aClientThatDiesLeavesTheConversationToAttachFromAnotherProcess() async throws {
        let words = (1...30).map { "w\($0) " }.joined()
        let box = try TestBox(claude: [["blocks": [["type": "text", "text": words, "chunks": 30]], "chunk_delay": 0.15]])
        defer { box.remove() }
        let first = try await RWSBinary.run(
            ["ask"] + box.server.rwsFlags + ["--persist", "app", "Count", "--permission-mode", "default"], home: box.localHome,
            until: { $0.contains("w3 ") }, within: .seconds(60)
        ) { pid in try SystemCall.kill(pid, SIGKILL) }
        #expect(first.killedBy == SIGKILL)
        let id = try #require(first.stderr.firstMatch(of: /rws ask --attach ([0-9a-f]{8})/)?.1).description
        #expect(
            try await Self.wait {
                try await RWSBinary.run(["ask"] + box.server.rwsFlags + ["--list-detached"], home: box.localHome).stdout.hasPrefix(
                    id + "\tdetached\t")
            })
        let sessions = await box.rws(["sessions"])
        #expect(sessions.stdout.split(separator: "\n").filter { $0.contains("  detached  ") }.count == 1, "\(sessions.stdout)")
        let listed = await box.rws(["sessions", "--json"])
        #expect(listed.stdout.contains("\"detached\": \"\(id)\""), "\(listed.stdout)")
        let attached = await box.rws(["ask", "--attach", id])
        #expect(attached.status == 0, "\(attached.stderr)")
        #expect(attached.stdout == words + "\n", "\(attached.stdout)")
        #expect(try await Self.wait { ClaudeCodeCLI.processes(in: box.project).isEmpty })
        let after = await box.rws(["ask", "--list-detached", "--json"])
        #expect(after.status == 0 && after.stdout == "[]\n", "\(after)")
    }

    @Test func stopEndsADetachedConversationWhoseToolIgnoresTerminationAndChecksTheBox() async throws {
        let box = try TestBox(claude: [Self.bash("trap '' TERM HUP; tail -f /dev/null")])
        defer { box.remove() }
        let first = try await RWSBinary.run(
            ["ask"] + box.server.rwsFlags + ["--persist", "app", "Wait", "--permission-mode", "bypassPermissions"], home: box.localHome,
            until: { _ in Self.running(box, "tail -f /dev/null") }, within: .seconds(60)
        ) { pid in try SystemCall.kill(pid, SIGKILL) }
        let id = try #require(first.stderr.firstMatch(of: /rws ask --attach ([0-9a-f]{8})/)?.1).description
        let stopped = await box.rws(["ask", "--stop", id])
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("stopped conversation \(id)"))
        #expect(ClaudeCodeCLI.processes(in: box.project).isEmpty)
        #expect(try await Self.wait { try FileManager.default.contentsOfDirectory(atPath: Self.folder(box)).isEmpty })
        let again = await box.rws(["ask", "--stop", id])
        #expect(again.status == 1 && again.stderr.contains("no detached conversation \(id) runs on the box"), "\(again.stderr)")
    }

    @Test func aTurnThatEndsNormallyStopsTheConversationAndJSONNamesItFirst() async throws {
        let box = try TestBox(claude: [["blocks": [["type": "text", "text": "Short answer."]]]])
        defer { box.remove() }
        let outcome = await box.rws(["ask", "--persist", "--json", "app", "Hi", "--permission-mode", "default"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.first?.wholeMatch(of: /\{"type":"detached","conversation_id":"[0-9a-f]{8}"\}/) != nil, "\(outcome.stdout)")
        #expect(lines.last?.contains("\"type\":\"result\"") == true, "\(outcome.stdout)")
        #expect(try await Self.wait { ClaudeCodeCLI.processes(in: box.project).isEmpty })
        #expect(try FileManager.default.contentsOfDirectory(atPath: Self.folder(box)).isEmpty)
    }

    @Test func ctrlCTwiceStopsTheDetachedConversationOnTheBox() async throws {
        let box = try TestBox(claude: [Self.bash("trap '' INT TERM HUP; tail -f /dev/null")])
        defer { box.remove() }
        let outcome = try await RWSBinary.run(
            ["ask"] + box.server.rwsFlags + ["--persist", "app", "Wait", "--permission-mode", "bypassPermissions"], home: box.localHome,
            until: { _ in Self.running(box, "tail -f /dev/null") }, within: .seconds(60)
        ) { pid in
            try SystemCall.kill(pid, SIGINT)
            Thread.sleep(forTimeInterval: 0.3)
            try? SystemCall.kill(pid, SIGINT)  // gone already after the first: fine
        }
        #expect(outcome.status == 130, "\(outcome.stderr)")
        let left = ClaudeCodeCLI.processes(in: box.project)
        #expect(left.isEmpty, "\(outcome.stderr) \(left.map(\.command).joined(separator: "\n").suffix(300))")
        #expect(try await Self.wait { try FileManager.default.contentsOfDirectory(atPath: Self.folder(box)).isEmpty })
    }

    @Test func misusedDetachedFlagsAreRefusedBeforeConnecting() async throws {
        let box = try TestBox(claude: [])
        defer { box.remove() }
        for (arguments, message) in [
            (["--attach", "abc", "--persist"], "--attach and --persist exclude each other"),
            (["--idle", "5m", "app", "Hi"], "--idle goes with --persist"),
            (["--stop", "abc", "--list-detached"], "--stop and --list-detached exclude each other"),
            (["--attach", "abc", "app"], "--attach takes no PROJECT or PROMPT"),
        ] {
            let outcome = await box.rws(["ask"] + arguments)
            #expect(outcome.status == 64 && outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
        }
        let unknown = await box.rws(["ask", "--attach", "0badc0de"])
        #expect(unknown.status == 1 && unknown.stderr.contains("no detached conversation 0badc0de"), "\(unknown.stderr)")
    }
}
