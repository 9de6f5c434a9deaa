import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import SessionHistory
import Testing

/// Search over a file the real Claude Code CLI wrote (talking to a scripted model), on the box it
/// ran on and, copied, on both shared servers.
@Suite(.serialized, .timeLimit(.minutes(2))) struct SessionSearchClaudeCodeTests {
    @Test func aConversationClaudeCodeWroteIsFoundByItsWordsInEitherCaseAndOpensAtTheMatch() async throws {
        let box = try TestBox(modelInSettings: false, claude: [Turn.text("Done: the ÉPIQUE quartz module now says \"bonjour\".")])
        defer { box.remove() }
        let id = try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(on: ssh, options: box.options())
            let events = try await collect(try await conversation.send("Réécris le module épique, s'il te plaît"), in: conversation)
            await conversation.stop()
            return try #require(events.session?.id)
        }

        let copies = try ServerKind.allCases.map { kind in
            let sandbox = try TestBox(kind)
            let folder = sandbox.claudeProjects + "/-home-dev-app"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: box.sessionFile(id), toPath: folder + "/\(id).jsonl")
            return sandbox
        }
        defer { for sandbox in copies { sandbox.remove() } }

        for sandbox in copies {
            let found = try await sandbox.withSessions { try await $0.search(SessionSearchQuery(.text("ÉPIQUE"))) }
            #expect(found.sessions.map(\.id) == [id])
            #expect(found.hits.map(\.role) == ["user", "assistant"], "\(found.hits)")
            #expect(found.hits.map(\.match) == ["épique", "ÉPIQUE"])
            #expect(found.hits.first?.before == "Réécris le module " && found.hits.first?.after == ", s'il te plaît")
            let quoted = try await sandbox.withSessions { try await $0.search(SessionSearchQuery(.text("says \"BONJOUR\""))) }
            #expect(quoted.hits.map(\.role) == ["assistant"])

            let answer = try #require(found.hits.last?.uuid)
            let opened = try await sandbox.withSessions { try await $0.loadSession(id) }
            let suffix = try #require(opened.conversation.suffix(fromRecord: answer))
            guard case .assistant(let turn) = suffix.entries.first else {
                Issue.record("the conversation at \(answer) starts with \(String(describing: suffix.entries.first))")
                continue
            }
            #expect(turn.text.contains("ÉPIQUE quartz"))
        }
    }
}
