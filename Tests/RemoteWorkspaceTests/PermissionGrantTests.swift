import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import SessionHistory
import Testing

/// A standing permission granted through rws is exactly the one chosen, checked with the real
/// Claude Code CLI on both servers: what it then lets run without a question, and what it leaves
/// asking.
@Suite(.serialized, .timeLimit(.minutes(2))) struct PermissionGrantTests {
    static func tool(_ name: String, _ input: [String: Any]) -> [String: Any] {
        ["blocks": [["type": "tool_use", "name": name, "input": input]]]
    }

    /// `~/outside` on the box of `project` (`~/workspace/app`): a folder outside the project.
    static func outside(_ project: String) -> String {
        URL(fileURLWithPath: project).deletingLastPathComponent().deletingLastPathComponent().path + "/outside"
    }

    /// A box whose script is made from the project's and the outside folder's paths, the folder made.
    static func box(
        _ kind: ServerKind, _ script: @escaping (_ project: String, _ outside: String) -> [[String: Any]]
    ) throws
        -> TestBox
    {
        let box = try TestBox(kind, modelInSettings: false) { project in script(project, outside(project)) }
        try FileManager.default.createDirectory(atPath: outside(box.project), withIntermediateDirectories: true)
        return box
    }

    /// Runs one turn, answering the first question with the grant `pick` chooses and denying the rest.
    static func turn(
        _ box: TestBox, prompt: String, on ssh: SSHConnection, conversation: ClaudeConversation,
        pick: ([ClaudePermissionGrant]) -> ClaudePermissionGrant?
    ) async throws -> (asked: [ClaudePermissionRequest], granted: ClaudePermissionGrant?, events: [ClaudeEvent]) {
        var asked: [ClaudePermissionRequest] = []
        var granted: ClaudePermissionGrant?
        let events = try await collect(try await conversation.send(prompt), in: conversation) { request in
            asked.append(request)
            guard asked.count == 1, let grant = pick(request.grants) else { return .deny(message: "no") }
            granted = grant
            return .allowGranting([grant])
        }
        return (asked, granted, events)
    }

    @Test(arguments: ServerKind.allCases)
    func alwaysAtAWriteOutsideTheProjectGrantsThatFileAloneAndAFollowingRmThereStillAsks(kind: ServerKind) async throws {
        let box = try Self.box(kind) { _, outside in
            [
                Self.tool("Write", ["file_path": outside + "/a.txt", "content": "a\n"]), Turn.bash("rm " + outside + "/a.txt"),
                Turn.text("Done."),
            ]
        }
        defer { box.remove() }
        let outside = Self.outside(box.project)
        try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(on: ssh, options: box.options())
            let (asked, granted, events) = try await Self.turn(box, prompt: "Write it", on: ssh, conversation: conversation) {
                ClaudePermissionGrant.narrowest(of: $0)
            }
            let grants = try #require(asked.first?.grants)
            // Claude Code suggests the acceptEdits mode and the folder; rws's own file rule comes first.
            #expect(
                grants.map(\.what) == [
                    "allow Edit(/\(outside)/a.txt)", "add \(outside) as working folder", "switch to the acceptEdits permission mode",
                ])
            #expect(granted?.isMadeByRWS == true && granted?.destination == "session")
            #expect(asked.map(\.toolName) == ["Write", "Bash"], "the rm was asked")
            #expect(FileManager.default.fileExists(atPath: outside + "/a.txt"), "written, and not removed")
            #expect(events.session?.permissionMode == "default")
            await conversation.stop()
        }
    }

    @Test(arguments: ServerKind.allCases)
    func takingOnlyTheFolderLeavesTheModeAsItWas(kind: ServerKind) async throws {
        let box = try Self.box(kind) { _, outside in
            [
                Self.tool("Write", ["file_path": outside + "/a.txt", "content": "a\n"]), Turn.bash("rm " + outside + "/a.txt"),
                Turn.text("Done."), Turn.text("Still here."),
            ]
        }
        defer { box.remove() }
        let outside = Self.outside(box.project)
        try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(on: ssh, options: box.options())
            let (asked, granted, _) = try await Self.turn(box, prompt: "Write it", on: ssh, conversation: conversation) { grants in
                grants.first { if case .directories = $0.kind { true } else { false } }
            }
            #expect(granted?.kind == .directories([outside]))
            #expect(asked.map(\.toolName) == ["Write", "Bash"], "the rm was asked")
            #expect(FileManager.default.fileExists(atPath: outside + "/a.txt"))
            let next = try await collect(try await conversation.send("And now?"), in: conversation)
            #expect(next.session?.permissionMode ?? "default" == "default", "the mode the next turn starts in")
            await conversation.stop()
        }
    }

    @Test(arguments: ServerKind.allCases)
    func takingTheModeByItselfShowsInTheSessionsModeAfterwards(kind: ServerKind) async throws {
        let box = try TestBox(kind, modelInSettings: false) { project in
            [
                Self.tool("Write", ["file_path": project + "/in.txt", "content": "in\n"]), Turn.bash("rm " + project + "/in.txt"),
                Turn.text("Done."), Turn.text("Still here."),
            ]
        }
        defer { box.remove() }
        try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(on: ssh, options: box.options())
            let (asked, granted, first) = try await Self.turn(box, prompt: "Write it", on: ssh, conversation: conversation) { grants in
                grants.first(where: \.isModeChange)
            }
            #expect(ClaudePermissionGrant.narrowest(of: asked.first?.grants ?? []).map(\.isModeChange) != true, "a is never the mode")
            #expect(granted?.kind == .mode(.acceptEdits))
            #expect(asked.map(\.toolName) == ["Write"], "the rm in the project ran without a question in acceptEdits")
            #expect(!FileManager.default.fileExists(atPath: box.project + "/in.txt"))
            let next = try await collect(try await conversation.send("And now?"), in: conversation)
            #expect(next.session?.permissionMode == "acceptEdits")
            await conversation.stop()
            let id = try #require(first.session?.id)
            let listing = try await RemoteSessions(connection: ssh, cache: nil).findSession(id)
            #expect(listing.summary.permissionMode == "acceptEdits")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func anAlwaysRuleForLsDoesNotAllowAWrite(kind: ServerKind) async throws {
        let box = try Self.box(kind) { project, outside in
            [Turn.bash("ls -la " + outside), Self.tool("Write", ["file_path": project + "/b.txt", "content": "b\n"]), Turn.text("Done.")]
        }
        defer { box.remove() }
        let outside = Self.outside(box.project)
        try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(on: ssh, options: box.options())
            let (asked, granted, _) = try await Self.turn(box, prompt: "Look", on: ssh, conversation: conversation) {
                ClaudePermissionGrant.narrowest(of: $0)
            }
            #expect(granted?.kind == .rules(["Bash(ls -la \(outside))"], behavior: "allow"), "Claude Code's own exact rule")
            #expect(asked.map(\.toolName) == ["Bash", "Write"], "the Write was asked")
            #expect(!FileManager.default.fileExists(atPath: box.project + "/b.txt"))
            await conversation.stop()
        }
    }
}
