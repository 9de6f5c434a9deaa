import Foundation
import RWSTestSupport
import RemoteWorkspace
import SessionHistory
import Testing

/// Loading big sessions over slow links: the last messages only, compressed, and reloads that
/// read only what was appended.
@Suite struct SessionPagingTests {
    /// The entries alone, rendered (usage and subagents depend on how much of the file was read).
    static func shown(_ conversation: Conversation) -> String {
        Conversation(sessionId: conversation.sessionId, entries: conversation.entries).render(.json)
    }

    /// A session of `pairs` prompts and answers, each answer about 1.5 KB of varied text.
    static func bigSession(_ sandbox: TestBox, id: String, pairs: Int) throws -> String {
        var lines: [String] = []
        var parent: String?
        for index in 0..<pairs {
            let text = (0..<30).map { "word\(($0 * 7919 + index * 104_729) % 100_003)" }.joined(separator: " ")
            lines.append(Records.user("question \(index) " + text, uuid: "u\(index)", parent: parent, session: id))
            lines.append(
                Records.assistant(
                    "answer \(index) " + String(repeating: text + " ", count: 4), uuid: "a\(index)", parent: "u\(index)", session: id))
            parent = "a\(index)"
        }
        return try sandbox.writeSession(id, lines: lines)
    }

    @Test(arguments: ServerKind.allCases, [1, 7, 50])
    func lastNGivesExactlyTheLastNMessagesOfTheFullLoadAndMovesFarFewerBytes(kind: ServerKind, count: Int) async throws {
        let sandbox = try TestBox(kind)
        defer { sandbox.remove() }
        let id = "7a11a11a-0000-4000-8000-000000000001"
        let path = try Self.bigSession(sandbox, id: id, pairs: 2_000)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        try await sandbox.withSessions { sessions in
            let full = try await sessions.load(try await sessions.findSession(id), options: SessionLoadOptions(compression: .none))
            let last = try await sessions.loadSession(id, last: count)
            #expect(last.conversation.messageCount == count)
            #expect(Self.shown(last.conversation) == Self.shown(full.conversation.suffix(messages: count)))
            #expect(full.bytesTransferred >= size)
            #expect(
                last.bytesTransferred * 20 < size,
                "\(last.bytesTransferred) bytes moved for a \(size)-byte file, \(last.byteCount) held from \(last.firstByteOffset)")
            #expect(last.followOffset == full.followOffset)
        }
    }

    @Test(arguments: ServerKind.allCases, ["ef958aa1", "258c7280", "cb2e607c"])
    func lastNOfRealSessionsMatchesTheFullLoad(kind: ServerKind, prefix: String) async throws {
        let sandbox = try TestBox(kind)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: [prefix])
        try await sandbox.withSessions { sessions in
            let listing = try await sessions.findSession(prefix)
            let full = try await sessions.load(listing)
            for count in [1, 5, 20] {
                let last = try await sessions.load(listing, options: SessionLoadOptions(lastMessages: count, firstTailWindow: 4_096))
                #expect(Self.shown(last.conversation) == Self.shown(full.conversation.suffix(messages: count)), "\(prefix), last \(count)")
            }
        }
    }

    @Test(arguments: ServerKind.allCases)
    func compressedAndRawLoadsGiveTheSameSessionAndCompressionMovesLess(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: ["258c7280"])
        try await sandbox.withSessions { sessions in
            let listing = try await sessions.findSession("258c7280")
            let raw = try await sessions.load(listing, options: SessionLoadOptions(compression: .none))
            let compressed = try await sessions.load(listing, options: SessionLoadOptions(compression: .gzip(level: 6)))
            #expect(compressed.render(.json) == raw.render(.json))
            #expect(compressed.lines.records.count == raw.lines.records.count)
            #expect(compressed.bytesTransferred * 3 < raw.bytesTransferred, "\(compressed.bytesTransferred) vs \(raw.bytesTransferred)")
        }
    }

    @Test(arguments: ServerKind.allCases, [SourceRetention.whole, .conversation])
    func aReloadReadsOnlyTheAppendedBytesAndEqualsAFreshLoad(kind: ServerKind, retention: SourceRetention) async throws {
        let sandbox = try TestBox(kind)
        defer { sandbox.remove() }
        let id = "7a11a11a-0000-4000-8000-000000000002"
        let path = try Self.bigSession(sandbox, id: id, pairs: 500)
        try await sandbox.withSessions { sessions in
            let listing = try await sessions.findSession(id)
            let first = try await sessions.load(listing, options: SessionLoadOptions(retention: retention))
            let last = try await sessions.load(listing, options: SessionLoadOptions(lastMessages: 10, retention: retention))
            // Claude Code appends a prompt and an answer; the answer's line arrives in two pieces.
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            let added = Records.user("one more", uuid: "u9000", parent: "a499", session: id) + "\n"
            let answer = Records.assistant("done", uuid: "a9000", parent: "u9000", session: id)
            try handle.write(contentsOf: Data((added + answer.prefix(40)).utf8))
            let halfway = try await sessions.reload(first)
            try handle.write(contentsOf: Data((answer.dropFirst(40) + "\n").utf8))
            try handle.close()
            let reloaded = try await sessions.reload(halfway)
            let reloadedLast = try await sessions.reload(last)
            let fresh = try await sessions.load(try await sessions.findSession(id), options: SessionLoadOptions(compression: .none))

            #expect(halfway.conversation.messageCount == first.conversation.messageCount + 1)
            #expect(reloaded.render(.json) == fresh.render(.json))
            #expect(reloaded.followOffset == fresh.followOffset)
            #expect(Self.shown(reloadedLast.conversation) == Self.shown(fresh.conversation.suffix(messages: 10)))
            #expect(reloaded.bytesTransferred < answer.utf8.count + 200, "\(reloaded.bytesTransferred) bytes moved")
            #expect(reloaded.byteCount == fresh.byteCount)
            #expect(reloaded.lines.records.allSatisfy { $0.raw.bytes.isEmpty } == (retention == .conversation))
        }
    }
}
