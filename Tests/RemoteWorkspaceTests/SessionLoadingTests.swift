import Foundation
import RWSTestSupport
import RemoteWorkspace
import SessionHistory
import Testing

@Suite struct SessionLoadingTests {
    @Test(arguments: ServerKind.allCases, ["ef958aa1", "29ccd257", "cb2e607c", "258c7280", "fe5e1c67"])
    func aLoadedSessionShowsTheSameConversationAsTheLocalFile(kind: ServerKind, prefix: String) async throws {
        let sandbox = try TestBox(kind)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: [prefix, "agent-ea02459f"])
        let remote = try await sandbox.withSessions { try await $0.loadSession(prefix) }
        let local = try LocalSession.load(at: URL(fileURLWithPath: remote.listing.file.path))
        #expect(remote.byteCount == remote.listing.file.size)
        #expect(remote.conversation.subagents.count == local.conversation.subagents.count)
        #expect(remote.render(.markdown) == local.render(.markdown))
        #expect(remote.render(.json) == local.render(.json))
    }

    /// Streamed from the box and decoded as it arrives (`SourceRetention.conversation`), raw or
    /// gzipped: the same conversation, sizes and follow offset as the whole read.
    @Test(arguments: [
        ("ef958aa1", ServerKind.openssh, TransferCompression.none), ("258c7280", .dropbear, .gzip(level: 1)),
        ("fe5e1c67", .openssh, .gzip(level: 6)), ("29ccd257", .dropbear, .none),
    ])
    func aSessionStreamedForItsConversationShowsTheSameAsTheWholeRead(
        prefix: String, kind: ServerKind, compression: TransferCompression
    ) async throws {
        let sandbox = try TestBox(kind)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: [prefix, "agent-ea02459f"])
        let (whole, streamed) = try await sandbox.withSessions { sessions in
            let listing = try await sessions.findSession(prefix)
            return (
                try await sessions.load(listing, options: SessionLoadOptions(compression: compression)),
                try await sessions.load(listing, options: SessionLoadOptions(compression: compression, retention: .conversation))
            )
        }
        for format in ExportFormat.allCases {
            #expect(streamed.render(format) == whole.render(format), "\(format)")
        }
        #expect(streamed.conversation.subagents.count == whole.conversation.subagents.count)
        #expect((streamed.byteCount, streamed.followOffset) == (whole.byteCount, whole.followOffset))
        #expect(streamed.lines.issues == whole.lines.issues)
        #expect(streamed.lines.records.allSatisfy { $0.raw.bytes.isEmpty })
    }
}
