import Foundation
import RWSTestSupport
import Testing

/// Titles, prompts, tool output and names from a box reach the terminal as visible text, never
/// as control sequences; JSON and a raw export keep them as they are.
@Suite struct TerminalSafetyTests {
    static let id = "e5c00000-0000-4000-8000-000000000001"
    /// ESC sequences (clear screen, window title), BEL, CR, a C1 CSI, as JSON escapes.
    static let hostile = #"\u001b[2J\u001b]0;owned\u0007top\rhidden\u009b31mred"#
    static let shown = #"\e[2J\e]0;owned\x07top\rhidden\u009b31mred"#
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-safe-\(UUID().uuidString.prefix(8))").path

    /// A session whose title, prompt and tool output all carry the hostile text.
    static var lines: [String] {
        [
            #"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"\#(id)","cwd":"/w","#
                + #""timestamp":"2026-02-03T04:05:06.000Z","message":{"role":"user","content":"prompt \#(hostile)"}}"#,
            #"{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"\#(id)","timestamp":"2026-02-03T04:05:07.000Z","#
                + #""message":{"id":"m1","model":"claude-x","content":[{"type":"tool_use","id":"t1","name":"Bash","#
                + #""input":{"command":"cat x"}}]}}"#,
            #"{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"\#(id)","timestamp":"2026-02-03T04:05:08.000Z","#
                + #""message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"out one\n\tout "#
                + #"two \#(hostile)"}]}}"#,
            #"{"type":"custom-title","customTitle":"title \#(hostile)","sessionId":"\#(id)"}"#,
        ]
    }

    /// Writes the session into `folder` and returns its path.
    static func writeSession(in folder: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/\(id).jsonl"
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The bytes a terminal would act on: C0 controls but newline and tab, DEL, C1 controls.
    static func controlBytes(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        var found: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x7F { found.append(byte) }
            if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) { found.append(bytes[index + 1]) }
        }
        return found
    }

    func run(_ arguments: [String]) async throws -> RWSBinary.Outcome {
        try await RWSBinary.run(arguments, home: home)
    }

    @Test func historyOfALocalFileShowsControlCharactersVisibly() async throws {
        let folder = home + "/project"
        let file = try Self.writeSession(in: folder)
        defer { try? FileManager.default.removeItem(atPath: home) }

        for format in ["text", "markdown"] {
            let outcome = try await run(["history", file, "--format", format])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(Self.controlBytes(outcome.stdout).isEmpty, "\(format): \(Self.controlBytes(outcome.stdout))")
            #expect(outcome.stdout.contains("prompt " + Self.shown), "\(format)")
            #expect(outcome.stdout.contains("title " + Self.shown), "\(format)")
        }
        let text = try await run(["history", file]).stdout
        #expect(text.contains("out one\n") && text.contains("\tout two " + Self.shown))
    }

    @Test func sessionsTableShowsTheTitleOnOneVisibleLine() async throws {
        let folder = home + "/project"
        _ = try Self.writeSession(in: folder)
        defer { try? FileManager.default.removeItem(atPath: home) }

        let outcome = try await run(["sessions", "--local", folder])

        #expect(outcome.status == 0, "\(outcome.stderr)")
        // Written a moment ago, last record a prompt: Claude is working on it.
        #expect(
            outcome.stdout == "ID        LAST              MSGS   STATE       CONTEXT      AGENTS  " + "TITLE\n"
                + "e5c00000  2026-02-03 04:05  3      running     -            -       title \(Self.shown)\n")
    }

    @Test func jsonAndARawExportKeepTheSessionsCharacters() async throws {
        let folder = home + "/project"
        let file = try Self.writeSession(in: folder)
        defer { try? FileManager.default.removeItem(atPath: home) }

        let exported = try await run(["export", file])
        let json = try await run(["history", file, "--format", "json"])

        #expect(exported.stdout.contains("\u{1B}[2J\u{1B}]0;owned\u{07}top\rhidden\u{9B}31mred"))
        #expect(Self.controlBytes(json.stdout).isEmpty)
        #expect(json.stdout.contains(#"\u001b[2J\u001b]0;owned\u0007top\rhidden\u009b31mred"#))
        _ = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8))
    }

    @Test func errorMessagesQuotingANameShowItVisibly() async throws {
        let unreadable = home + "/ev\u{1B}]0;x\u{07}.jsonl"
        try FileManager.default.createDirectory(atPath: unreadable, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }

        let outcome = try await run(["history", unreadable])

        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains(#"ev\e]0;x\x07.jsonl"#), "\(outcome.stderr)")
        #expect(Self.controlBytes(outcome.stderr).isEmpty)
    }

    @Test(arguments: ServerKind.allCases)
    func remoteSessionsAndFileNamesAreShownVisibly(kind: ServerKind) async throws {
        let box = try TestBox(kind)
        defer { box.remove() }
        let (server, root) = (box.server, box.root)
        _ = try Self.writeSession(in: box.claudeProjects + "/-w")
        try FileManager.default.createDirectory(atPath: root + "/files", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: root + "/files/evil\u{1B}[31m\u{07}\rname", contents: Data()))

        let sessions = try await run(["sessions"] + server.rwsFlags + ["--claude-dir", box.claudeDirectory])
        let names = try await run(["ls"] + server.rwsFlags + [root + "/files"])
        let long = try await run(["ls", "--long"] + server.rwsFlags + [root + "/files"])

        #expect(
            sessions.stdout == "ID        LAST              MSGS   STATE       CONTEXT      AGENTS  " + "TITLE\n"
                + "e5c00000  2026-02-03 04:05  3      running     -            -       title \(Self.shown)\n",
            "\(sessions.stderr)")
        #expect(names.stdout == #"evil\e[31m\x07\rname"# + "\n", "\(names.stderr)")
        #expect(Self.controlBytes(long.stdout).isEmpty && long.stdout.contains(#"evil\e[31m\x07\rname"#))
    }
}
