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
    static func box() throws -> AskBox {
        try AskBox(turns: Array(repeating: ["blocks": [["type": "text", "text": answer, "chunks": 5]]], count: 2))
    }

    @Test func theAnswerReachesStdoutWithItsControlSequencesShownVisibly() async throws {
        let box = try Self.box()
        defer { box.stop() }
        let outcome = await box.rws(["ask", "app", "Read the file", "--permission-mode", "plan"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == Self.shown + "\n", "\(outcome.stdout.debugDescription)")
        #expect(TerminalSafetyTests.controlBytes(outcome.stdout + outcome.stderr).isEmpty)
        let json = await box.rws(["ask", "app", "Read the file", "--permission-mode", "plan", "--json"])
        #expect(json.stdout.contains(#"\u001b]0;owned\u0007"#), "\(json.stdout)")
    }

    @Test func onATerminalTheWindowTitleAndTheScreenStayAsTheyWere() async throws {
        let box = try Self.box()
        defer { box.stop() }
        let tmux = try Tmux.start(home: box.home)
        defer { tmux.stop() }
        try await tmux.waitForLastLine(Tmux.localPrompt)
        let title = try tmux.command(["display-message", "-p", "-t", "main", "#{pane_title}"])
        try tmux.type(
            try ShellQuoting.commandLine([RWSBinary.path, "ask"] + box.server.rwsFlags + ["app", "Read it", "--permission-mode", "plan"])
                + "; echo rws-exit=$?")
        let screen = try await tmux.wait(for: "rws-exit=0", within: .seconds(30))
        #expect(screen.contains(Self.shown), "\(screen)")
        #expect(screen.contains("local$ "), "the screen was cleared: \(screen)")
        #expect(try tmux.command(["display-message", "-p", "-t", "main", "#{pane_title}"]) == title)
    }
}
