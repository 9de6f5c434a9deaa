import Foundation
import RWSTestSupport
import Testing

/// A box whose commands run without a UTF-8 locale (`LC_ALL=POSIX`, as a minimal container or a
/// login without `LANG` has) still shows UTF-8 names and text as they are: rws reads the box's
/// bytes, never the box's idea of characters.
@Suite struct LocaleLessBoxTests {
    static let id = "c0c0a000-0000-4000-8000-0000000000e1"

    /// A box of its own whose every command runs under `LC_ALL=POSIX`, with a project `café`
    /// holding `menu-été.txt`, and a session titled in UTF-8 whose prompt says "le café".
    static func localeLessBox(_ kind: ServerKind) throws -> TestBox {
        let server = try TestSSHServer.forcing(
            kind, script: #"unset LANG LANGUAGE LC_CTYPE; LC_ALL=POSIX; export LC_ALL; exec /bin/sh -c "$SSH_ORIGINAL_COMMAND""#)
        let box: TestBox
        do { box = try TestBox(ownServer: server) } catch {
            server.stop()
            throw error
        }
        let project = box.workspaceRoot + "/café"
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        try Shell.run("/usr/bin/git", ["-C", project, "init", "-q"])
        try Data("crème brûlée\n".utf8).write(to: URL(fileURLWithPath: project + "/menu-été.txt"))
        try box.writeSession(
            id, folder: "-home-dev-caf-",
            lines: [
                #"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"\#(id)","cwd":"/home/dev/café","#
                    + #""timestamp":"2026-02-03T04:05:06.000Z","message":{"role":"user","content":"le café est prêt ✓"}}"#,
                #"{"type":"custom-title","customTitle":"Crème brûlée ✓","sessionId":"\#(id)"}"#,
            ])
        return box
    }

    private func run(_ box: TestBox, _ command: String, _ arguments: [String] = []) async throws -> RWSBinary.Outcome {
        let outcome = try await box.rwsBinary([command] + box.server.rwsFlags + arguments)
        #expect(outcome.status == 0, "rws \(command): \(outcome.stderr)")
        return outcome
    }

    @Test(arguments: ServerKind.allCases)
    func namesTitlesTextAndMatchesShowAsTheBoxHoldsThem(kind: ServerKind) async throws {
        let box = try Self.localeLessBox(kind)
        defer { box.remove() }
        // The box itself knows no UTF-8: its character map is ASCII.
        #expect(try await run(box, "exec", ["--", "locale charmap 2>/dev/null || echo none"]).stdout == "ANSI_X3.4-1968\n")

        let projects = try await run(box, "projects").stdout
        #expect(projects.contains("café"), "\(projects.debugDescription)")
        let sessions = try await run(box, "sessions").stdout
        #expect(sessions.contains("c0c0a000") && sessions.contains("Crème brûlée ✓"), "\(sessions.debugDescription)")
        // Upper case finds lower case beyond ASCII too, though the box's grep folds only ASCII.
        let found = try await run(box, "search", ["CAFÉ"]).stdout
        #expect(found.contains("Crème brûlée ✓") && found.contains("le café est prêt ✓"), "\(found.debugDescription)")
        let history = try await run(box, "history", ["c0c0"]).stdout
        #expect(history.hasPrefix("# Crème brûlée ✓\n") && history.contains("le café est prêt ✓"), "\(history.debugDescription)")
        let files = try await run(box, "files", [box.workspaceRoot + "/café", "été"]).stdout
        #expect(files.contains("menu-été.txt"), "\(files.debugDescription)")
        let listing = try await run(box, "ls", [box.workspaceRoot + "/café"]).stdout
        #expect(listing.contains("menu-été.txt"), "\(listing.debugDescription)")
        #expect(try await run(box, "cat", [box.workspaceRoot + "/café/menu-été.txt"]).stdout == "crème brûlée\n")
    }
}
