import Foundation
import RWSTestSupport
import Testing

/// The test support's terminal reads a screen as a person does: where the pane's width cut a
/// line does not change what a test finds in it.
@Suite struct TmuxScreenTests {
    @Test func aLineThePaneWrappedIsFoundWholeWithNoTrailingSpaces() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-tmux-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let tmux = try Tmux.start(home: home, columns: 20, rows: 10)
        defer { tmux.stop() }
        let long = "question? [y]es / [a]lways / [N]o:"
        try tmux.type("printf '%s\\n%s   \\n' '\(long)' short")
        let screen = try await tmux.wait(for: "\n\(long)\nshort\n")
        #expect(!screen.contains(" \n"))
    }
}
