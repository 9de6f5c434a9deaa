import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// `rws ask` prints the model's answer, text a hostile file can put in its mouth, as visible
/// text: a window title (OSC 0), a clipboard write (OSC 52) and cursor movement never reach the
/// terminal as control sequences. `--json` keeps them, escaped as JSON does.
@Suite(.serialized, .timeLimit(.minutes(1))) struct AskTerminalSafetyTests {
    static let answer = "before \u{1B}]0;owned\u{07} clip \u{1B}]52;c;aGVsbG8=\u{07} move \u{1B}[2J\u{1B}[H after"
    static let shown = #"before \e]0;owned\x07 clip \e]52;c;aGVsbG8=\x07 move \e[2J\e[H after"#

    /// A box whose model gives that answer to each of two asks.
    static func box() throws -> TestBox {
        try TestBox(claude: Array(repeating: ["blocks": [["type": "text", "text": answer, "chunks": 5]]], count: 2))
    }

    @Test func theAnswerReachesStdoutWithItsControlSequencesShownVisibly() async throws {
        let box = try Self.box()
        defer { box.remove() }
        let outcome = await box.rws(["ask", "app", "Read the file", "--permission-mode", "plan"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == Self.shown + "\n", "\(outcome.stdout.debugDescription)")
        #expect(TerminalSafetyTests.controlBytes(outcome.stdout + outcome.stderr).isEmpty)
        let json = await box.rws(["ask", "app", "Read the file", "--permission-mode", "plan", "--json"])
        #expect(json.stdout.contains(#"\u001b]0;owned\u0007"#), "\(json.stdout)")
    }

    /// Runs `rws ask ARGUMENTS` in a terminal of `box`'s home; `during` sees it run (answers its
    /// questions) until it ends. Returns the last screen, and checks that the window title and the
    /// screen above stayed as they were.
    private func onATerminal(_ box: TestBox, _ arguments: [String], during: (Tmux) async throws -> Void = { _ in }) async throws -> String {
        let tmux = try Tmux.start(home: box.localHome)
        defer { tmux.stop() }
        try await tmux.waitForLastLine(Tmux.localPrompt)
        let title = try tmux.command(["display-message", "-p", "-t", "main", "#{pane_title}"])
        try tmux.type(try ShellQuoting.commandLine([RWSBinary.path, "ask"] + box.server.rwsFlags + arguments) + "; echo rws-exit=$?")
        try await during(tmux)
        let screen = try await tmux.wait(for: "rws-exit=0", within: .seconds(30))
        #expect(screen.contains("local$ "), "the screen was cleared: \(screen)")
        #expect(try tmux.command(["display-message", "-p", "-t", "main", "#{pane_title}"]) == title)
        return screen
    }

    @Test func onATerminalTheWindowTitleAndTheScreenStayAsTheyWere() async throws {
        let box = try Self.box()
        defer { box.remove() }
        let screen = try await onATerminal(box, ["app", "Read it", "--permission-mode", "plan"])
        #expect(screen.contains(Self.shown), "\(screen)")
    }

    /// A box whose model runs a command printing the sequences (the tool's output carries them;
    /// Claude Code itself refuses a Bash command holding them raw), then writes a file whose
    /// content holds them (the permission preview shows it).
    static func toolBox() throws -> TestBox {
        let command = #"printf '\033]0;owned\007\033]52;c;aGk=\007\033[H\033[2J'; echo"#
        let write = ["file_path": "notes.txt", "content": "notes \(HostileBoxTerminalTests.hostile)\n"]
        return try TestBox(claude: [
            ["blocks": [["type": "tool_use", "name": "Bash", "input": ["command": command]]]],
            ["blocks": [["type": "tool_use", "name": "Write", "input": write]]],
            ["blocks": [["type": "text", "text": "done", "chunks": 1]]],
        ])
    }

    @Test func aToolCallsInputAndOutputShowTheirControlSequencesVisibly() async throws {
        let box = try Self.toolBox()
        defer { box.remove() }
        let outcome = await box.rws(["ask", "app", "Run it", "--permission-mode", "bypassPermissions"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let all = outcome.stdout + outcome.stderr
        #expect(TerminalSafetyTests.controlBytes(all).isEmpty, "\(all.debugDescription)")
        #expect(outcome.stderr.contains("⏺ Bash(printf"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains(#"⎿ \e]0;owned\x07\e]52;c;aGk=\x07\e[H\e[2J"#), "\(outcome.stderr)")
    }

    @Test func aPermissionPreviewOnATerminalLeavesTheTitleAndTheScreenAsTheyWere() async throws {
        let box = try Self.toolBox()
        defer { box.remove() }
        _ = try await onATerminal(box, ["app", "Run it"]) { tmux in
            // Claude Code runs the printf without asking (it counts as read-only); the Write asks.
            let question = try await tmux.wait(for: "Allow Write", within: .seconds(30))
            #expect(question.contains("notes " + HostileBoxTerminalTests.shown), "\(question)")
            try tmux.type("y")
        }
    }
}
