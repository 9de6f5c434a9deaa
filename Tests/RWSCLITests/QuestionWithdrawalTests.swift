import Foundation
import Platform
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import Testing

/// One question, one answer: a permission question shown by `rws ask` and `rws watch` at once
/// (the real Claude Code CLI, rws's hooks installed on the box) is withdrawn from the client that
/// did not answer within a second, with a line saying how it was answered; what was held back
/// meanwhile flows again, and the next keys typed go to the next question only.
@Suite(.serialized, .timeLimit(.minutes(2))) struct QuestionWithdrawalTests {
    /// Three Bash calls, then a closing line.
    static var turns: [[String: Any]] {
        [
            ["blocks": [["type": "tool_use", "name": "Bash", "input": ["command": "echo one > one.txt", "description": "one"]]]],
            ["blocks": [["type": "tool_use", "name": "Bash", "input": ["command": "echo two > two.txt", "description": "two"]]]],
            ["blocks": [["type": "tool_use", "name": "Bash", "input": ["command": "echo three > three.txt", "description": "three"]]]],
            ["blocks": [["type": "text", "text": "All done."]]],
        ]
    }

    @Test(arguments: ServerKind.allCases)
    func aQuestionAnsweredInOneClientIsWithdrawnFromTheOtherWithinASecond(kind: ServerKind) async throws {
        let box = try TestBox(kind, claude: Self.turns)
        defer { box.remove() }
        let (ask, watch) = try await Self.askAndWatch(box)
        defer { [ask, watch].forEach { $0.stop() } }

        // 1: answered in the watch; rws ask withdraws its question.
        try await Self.bothAsk("Allow Bash: echo one > one.txt?", ask, watch)
        try watch.type("y")
        var answered = ContinuousClock.now
        try await ask.wait(for: "rws: the question about Bash was answered elsewhere", within: .seconds(10))
        #expect(ContinuousClock.now - answered < .seconds(1), "rws ask kept the stale question for \(ContinuousClock.now - answered)")

        // 2: answered in rws ask (the next line typed there goes to this question); the watch withdraws.
        try await Self.bothAsk("Allow Bash: echo two > two.txt?", ask, watch)
        try ask.type("n")
        answered = ContinuousClock.now
        // The hook sees the result in the transcript, or Claude Code ends it: either says so.
        try await watch.wait(within: .seconds(10), for: "the question withdrawn") {
            $0.contains("Bash: answered in Claude Code") || $0.contains("Bash: withdrawn by Claude Code")
        }
        #expect(ContinuousClock.now - answered < .seconds(1), "rws watch kept the stale question for \(ContinuousClock.now - answered)")

        // 3: the watch's next keys go to its next question.
        try await Self.bothAsk("Allow Bash: echo three > three.txt?", ask, watch)
        try watch.type("y")
        let screen = try await ask.wait(for: "rws-exit=0", within: .seconds(30))
        #expect(screen.contains("All done."), "\(screen)")
        #expect(FileManager.default.fileExists(atPath: box.project + "/one.txt"))
        #expect(!FileManager.default.fileExists(atPath: box.project + "/two.txt"))
        #expect(FileManager.default.fileExists(atPath: box.project + "/three.txt"))
        let sent = box.model.conversationRequests().map { String(describing: $0) }.joined()
        #expect(sent.contains("The user denied this tool call."), "rws ask's no reached Claude Code")
    }

    @Test func aQuestionOutlivedByClaudeCodeIsWithdrawnAndSaysSo() async throws {
        let box = try TestBox(claude: Array(Self.turns.prefix(1)))
        defer { box.remove() }
        let ask = try await Self.start(
            ["ask"] + box.server.rwsFlags + ["app", "Make the files", "--permission-mode", "default"], home: box.localHome)
        defer { ask.stop() }
        try await ask.wait(for: "Allow Bash: echo one > one.txt?", within: .seconds(30))
        for process in ClaudeCodeCLI.processes(in: box.project) { try? SystemCall.kill(process.pid, SIGKILL) }
        let killed = ContinuousClock.now
        let screen = try await ask.wait(within: .seconds(10), for: "rws's exit") { $0.contains(/rws-exit=[0-9]/) }
        #expect(ContinuousClock.now - killed < .seconds(1))
        #expect(screen.contains("rws: the question about Bash was not answered: Claude Code ended"), "\(screen)")
        #expect(!FileManager.default.fileExists(atPath: box.project + "/one.txt"))
    }

    /// A tmux pane running rws with `arguments`, its exit status echoed after it.
    static func start(_ arguments: [String], home: String) async throws -> Tmux {
        let tmux = try Tmux.start(home: home)
        do {
            try await tmux.waitForLastLine(Tmux.localPrompt)
            try tmux.type(try ShellQuoting.commandLine([RWSBinary.path] + arguments) + "; echo rws-exit=$?")
            return tmux
        } catch {
            tmux.stop()
            throw error
        }
    }

    /// rws's hooks installed, `rws watch` holding the lease, then `rws ask` "Make the files" in
    /// the default permission mode: each in a tmux pane of its own.
    static func askAndWatch(_ box: TestBox) async throws -> (ask: Tmux, watch: Tmux) {
        let install = await InProcessRWS.run(["hooks", "install"] + box.server.rwsFlags, home: box.localHome)
        guard install.status == 0 else { throw ScriptCase.Failure("rws hooks install: \(install)") }
        let watch = try await start(["watch"] + box.server.rwsFlags, home: box.localHome)
        do {
            try await watch.wait(for: "rws: watching", within: .seconds(20))
            let lease = box.server.remoteHome + "/.claude/rws/lease"
            _ = try await Eventually.holds(within: .seconds(20)) { FileManager.default.fileExists(atPath: lease) }
            let ask = try await start(
                ["ask"] + box.server.rwsFlags + ["app", "Make the files", "--permission-mode", "default"], home: box.localHome)
            return (ask, watch)
        } catch {
            watch.stop()
            throw error
        }
    }

    /// Waits until both panes ask `question`.
    static func bothAsk(_ question: String, _ ask: Tmux, _ watch: Tmux) async throws {
        try await ask.wait(for: question, within: .seconds(30))
        try await watch.wait(for: question, within: .seconds(10))
    }
}
