import Foundation
import Platform
import RWSTestSupport
import SSHClient
import Testing

/// Every command that prints text from the box shows its control characters visibly: a box
/// whose project names, file names, session records, process names and settings carry a window
/// title (OSC 0), a clipboard write (OSC 52) and cursor movement drives nothing on the terminal.
@Suite(.serialized) struct HostileBoxTerminalTests {
    /// OSC 0 (window title), OSC 52 (clipboard), cursor home and clear, as the box holds them.
    static let hostile = "t\u{1B}]0;owned\u{07}c\u{1B}]52;c;aGk=\u{07}m\u{1B}[H\u{1B}[2J"
    /// How rws shows it.
    static let shown = #"t\e]0;owned\x07c\e]52;c;aGk=\x07m\e[H\e[2J"#

    /// A box on the shared server whose workspace root and Claude Code folder hold a project,
    /// a file and a session in which every name and text is hostile.
    static func hostileBox() throws -> TestBox {
        let box = try TestBox()
        let project = hostileProject(of: box)
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        try Shell.run("/usr/bin/git", ["-C", project, "init", "-q"])
        try Data("x\n".utf8).write(to: URL(fileURLWithPath: project + "/file" + hostile + ".txt"))
        let escaped = String(data: try JSONSerialization.data(withJSONObject: [hostile], options: []), encoding: .utf8)!
            .dropFirst(2).dropLast(2)
        try box.writeSession(
            sessionID, folder: "-w",
            lines: [
                #"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"\#(sessionID)","cwd":"/w","#
                    + #""timestamp":"2026-02-03T04:05:06.000Z","message":{"role":"user","content":"needle \#(escaped)"}}"#,
                #"{"type":"custom-title","customTitle":"title \#(escaped)","sessionId":"\#(sessionID)"}"#,
                #"{"type":"odd\#(escaped)","sessionId":"\#(sessionID)"}"#,
            ])
        return box
    }

    static let sessionID = "e5c00000-0000-4000-8000-0000000000aa"

    /// The box's project, its name hostile.
    static func hostileProject(of box: TestBox) -> String { box.project + hostile }

    private func expectSafe(_ outcome: RWSBinary.Outcome, _ command: String, showing: Bool = true) {
        let all = outcome.stdout + outcome.stderr
        #expect(TerminalSafetyTests.controlBytes(all).isEmpty, "\(command): \(all.debugDescription)")
        if showing { #expect(all.contains(Self.shown), "\(command) did not show the text: \(all.debugDescription)") }
    }

    @Test func projectsSearchStatusAndRecordTypesShowTheBoxsTextVisibly() async throws {
        let box = try Self.hostileBox()
        defer { box.remove() }
        let name = "app" + Self.hostile
        expectSafe(try await box.rwsBinary(["projects"] + box.rwsFlags), "projects")
        expectSafe(try await box.rwsBinary(["search", "needle"] + box.rwsFlags), "search")
        expectSafe(try await box.rwsBinary(["status", Self.hostileProject(of: box)] + box.rwsFlags), "status")
        expectSafe(try await box.rwsBinary(["files", Self.hostileProject(of: box), "file"] + box.rwsFlags), "files")
        // The census keeps a type's first 32 characters: enough to show the title and the clipboard write.
        let types = try await box.rwsBinary(["record-types", "--all"] + box.rwsFlags)
        expectSafe(types, "record-types", showing: false)
        #expect(types.stdout.contains(#"oddt\e]0;owned\x07c\e]52;c;aGk=\x07"#))
        expectSafe(try await box.rwsBinary(["history", "e5c0"] + box.rwsFlags), "history")
        // A name typed with the sequences in it is refused, and the refusal shows them visibly.
        expectSafe(try await box.rwsBinary(["delete", name, "--dry-run"] + box.rwsFlags), "delete")
        // Errors that quote a path or what the box answered show it visibly too.
        expectSafe(try await box.rwsBinary(["cat"] + box.server.rwsFlags + [Self.hostileProject(of: box) + "/none"]), "cat")
        expectSafe(try await box.rwsBinary(["ls"] + box.server.rwsFlags + [Self.hostileProject(of: box) + "/none"]), "ls")
        expectSafe(
            try await box.rwsBinary(["get"] + box.server.rwsFlags + [Self.hostileProject(of: box) + "/none", box.root + "/got"]), "get")
    }

    @Test func portsShowAProcessNameVisibly() async throws {
        let box = try Self.hostileBox()
        defer { box.remove() }
        // A listener whose command name (15 bytes at most) sets the title and clears the screen.
        let listener = try SpawnedListener(name: "\u{1B}]0;ow\u{07}\u{1B}[2J")
        defer { listener.stop() }
        let outcome = try await box.rwsBinary(["ports"] + box.server.rwsFlags)
        expectSafe(outcome, "ports", showing: false)
        #expect(outcome.stdout.contains(#"\e]0;ow\x07\e[2J"#), "\(outcome.stdout)")
    }

    @Test func watchLinesShowTheSessionsTextVisibly() async throws {
        let box = try Self.hostileBox()
        defer { box.remove() }
        let file = box.claudeProjects + "/-w/" + Self.sessionID + ".jsonl"
        let cache = box.localHome + "/.cache/rws"
        // Once the watch made its baseline listing, the turn ends with a hostile answer.
        DispatchQueue.global().async {
            let deadline = Date().addingTimeInterval(20)
            while (try? FileManager.default.contentsOfDirectory(atPath: cache))?.isEmpty ?? true, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.05)
            }
            let escaped = #"t\u001b]0;owned\u0007c\u001b]52;c;aGk=\u0007m\u001b[H\u001b[2J"#
            let answer =
                #"{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"e5c00000-0000-4000-8000-0000000000aa","#
                + #""cwd":"/w","timestamp":"2026-02-03T04:05:09.000Z","message":{"id":"m1","role":"assistant","#
                + #""content":[{"type":"text","text":"done \#(escaped)"}],"stop_reason":"end_turn"}}"#
            if let handle = FileHandle(forWritingAtPath: file) {
                handle.seekToEndOfFile()
                handle.write(Data((answer + "\n").utf8))
                try? handle.close()
            }
        }
        let outcome = try await RWSBinary.run(
            ["watch"] + box.rwsFlags, home: box.localHome, until: { $0.contains("finished") }, within: .seconds(30)
        ) { child in try SystemCall.kill(child, SIGINT) }
        expectSafe(outcome, "watch")
    }
}

/// A process listening on a loopback port under a command name of the test's choosing.
private struct SpawnedListener {
    let process: Foundation.Process

    init(name: String) throws {
        process = Foundation.Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let script = """
            import ctypes, socket, sys, time
            ctypes.CDLL(None).prctl(15, sys.argv[1].encode(), 0, 0, 0)
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
            print(s.getsockname()[1], flush=True)
            time.sleep(120)
            """
        process.arguments = ["-c", script, name]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // Listening once it printed its port.
        _ = output.fileHandleForReading.availableData
    }

    func stop() {
        try? SystemCall.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
