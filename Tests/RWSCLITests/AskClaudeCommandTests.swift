import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// `rws claude`: Claude Code's own UI in a remote terminal, in the project's directory.
@Suite(.serialized, .timeLimit(.minutes(1))) struct AskClaudeCommandTests {
    @Test func claudeRunsTheInteractiveUIInTheProjectAndEndsWithTheConnection() async throws {
        let box = try TestBox(claude: [])
        defer { box.remove() }
        // Onboarding done, as on a box someone used: offline, newer releases leave the first-run
        // screen by themselves (2.1.332: "Unable to connect to Anthropic services").
        try box.finishClaudeOnboarding(trusting: box.project)
        let tmux = try Tmux.start(home: box.localHome)
        defer { tmux.stop() }
        try await tmux.waitForLastLine(Tmux.localPrompt)
        try tmux.type(try ShellQuoting.commandLine([RWSBinary.path, "claude"] + box.server.rwsFlags + ["app"]) + "; echo rws-exit=$?")
        // Claude Code's first screen in a fresh home (theme choice or folder trust), drawn in the remote PTY.
        let screen = try await tmux.wait(within: .seconds(30), for: "Claude Code's UI") {
            $0.contains("Claude Code") || $0.contains("trust")
        }
        let running = ClaudeCodeCLI.processes(in: box.project)
        #expect(!running.isEmpty, "\(screen)")
        try tmux.press("Enter")
        try tmux.type("~.", enter: false)
        try await tmux.wait(for: "rws-exit=255")
        // The PTY's hangup ends Claude Code on the box.
        #expect(try await Eventually.holds(every: .milliseconds(100)) { ClaudeCodeCLI.processes(in: box.project).isEmpty })
    }

    @Test func claudeWithoutATerminalSaysToUseAsk() async throws {
        let box = try TestBox(claude: [])
        defer { box.remove() }
        let outcome = await box.rws(["claude", "app"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("rws ask"))
    }
}
