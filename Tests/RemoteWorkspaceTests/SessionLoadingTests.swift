import Foundation
import RemoteWorkspace
import SessionHistory
import Testing

@Suite struct SessionLoadingTests {
    @Test(arguments: ["ef958aa1", "29ccd257", "cb2e607c", "258c7280", "fe5e1c67"])
    func aLoadedSessionShowsTheSameConversationAsTheLocalFile(prefix: String) async throws {
        let sandbox = try SessionSandbox()
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: [prefix, "agent-ea02459f"])
        let remote = try await sandbox.withSessions { try await $0.loadSession(prefix) }
        let local = try LocalSession.load(at: URL(fileURLWithPath: remote.listing.file.path))
        #expect(remote.byteCount == remote.listing.file.size)
        #expect(remote.conversation.subagents.count == local.conversation.subagents.count)
        #expect(remote.render(.markdown) == local.render(.markdown))
        #expect(remote.render(.json) == local.render(.json))
    }
}
