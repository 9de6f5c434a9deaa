import Foundation
import RWSTestSupport
import Testing

/// A box out of file descriptors: every redirection its shell makes fails (here: its commands
/// may open only 10 files, which leaves dash none to save a descriptor in). A command that
/// reads the box says so and what to do, exits 71, and never takes the failure for an answer
/// ("no matches", "no projects", "not a directory"); a stop still stops.
@Suite struct BoxDescriptorExhaustionTests {
    static let id = "fd000000-0000-4000-8000-00000000000a"

    /// A box of its own whose every command runs under `ulimit -n 10`, with a project, a file
    /// and a session.
    static func exhaustedBox(_ kind: ServerKind) throws -> TestBox {
        let server = try TestSSHServer.forcing(kind, script: #"ulimit -n 10 || exit 99; exec /bin/sh -c "$SSH_ORIGINAL_COMMAND""#)
        let box: TestBox
        do { box = try TestBox(ownServer: server) } catch {
            server.stop()
            throw error
        }
        try FileManager.default.createDirectory(atPath: box.project, withIntermediateDirectories: true)
        try Data("x\n".utf8).write(to: URL(fileURLWithPath: box.project + "/notes.txt"))
        try box.writeSession(
            id,
            lines: [
                #"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"\#(id)","cwd":"/home/dev/proj","#
                    + #""timestamp":"2026-02-03T04:05:06.000Z","message":{"role":"user","content":"find the needle"}}"#
            ])
        return box
    }

    @Test(arguments: ServerKind.allCases)
    func whatReadsTheBoxSaysItIsOutOfDescriptorsAndNothingIsChanged(kind: ServerKind) async throws {
        let box = try Self.exhaustedBox(kind)
        defer { box.remove() }
        let session = box.claudeProjects + "/-home-dev-proj/\(Self.id).jsonl"
        let before = try Data(contentsOf: URL(fileURLWithPath: session))
        let commands: [(words: [String], step: String)] = [
            (["sessions"], "listing sessions"), (["search", "needle"], "searching sessions"), (["history", "fd00"], "listing sessions"),
            (["projects"], "listing projects"), (["files", box.project, "notes"], "listing the project's files"),
            (["ls", box.workspaceRoot], "listing"), (["rename", "fd00", "a new title"], "listing sessions"),
        ]
        for (words, step) in commands {
            let outcome = try await box.rwsBinary([words[0]] + box.server.rwsFlags + Array(words.dropFirst()))
            let said = "rws \(words.joined(separator: " ")): \(outcome.stderr)"
            // dropbear's SFTP server runs outside the forced command, with descriptors: it lists.
            if kind == .dropbear && words[0] == "ls" {
                #expect(outcome.status == 0 && outcome.stdout == "app\n", "\(said)")
                continue
            }
            #expect(outcome.status == 71, "\(said)")
            #expect(outcome.stdout.isEmpty, "\(said); stdout \(outcome.stdout.debugDescription)")
            #expect(outcome.stderr.hasPrefix("rws: the box's shell could not open a file while \(step)"), "\(said)")
            #expect(outcome.stderr.contains("the box is out of file descriptors. End what holds many files open there"), "\(said)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: session)) == before)
    }

    @Test(arguments: ServerKind.allCases)
    func aTimeoutStillStopsACommandThatIgnoresTermination(kind: ServerKind) async throws {
        let box = try Self.exhaustedBox(kind)
        defer { box.remove() }
        let seconds = Int.random(in: 100_000...999_999)
        let outcome = try await box.rwsBinary(
            ["exec"] + box.server.rwsFlags + ["--timeout", "1s", "--", "trap '' HUP TERM; sleep \(seconds) & sleep \(seconds + 1)"])
        #expect(outcome.status == 124, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("timed out after 1s and was stopped"), "\(outcome.stderr)")
        #expect(LocalProcessTable.live(running: "sleep \(seconds)").isEmpty)
        #expect(LocalProcessTable.live(running: "sleep \(seconds + 1)").isEmpty)
    }
}
