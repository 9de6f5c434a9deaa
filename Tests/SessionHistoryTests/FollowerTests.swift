import Testing

@testable import SessionHistory

@Suite struct FollowerTests {
    @Test func appendedChunksYieldNewEntriesAndUpdates() throws {
        let bytes = try TestFiles.fixture("windows-and-future.jsonl")
        var follower = SessionFollower()
        var events: [ConversationEvent] = []

        var start = 0
        while start < bytes.count {
            events += follower.append(bytes[start..<min(start + 97, bytes.count)]).events
            start += 97
        }

        let kinds = events.map { event -> String in
            switch event {
            case .added(let entry, _): if case .user = entry { return "added user" } else { return "added assistant" }
            case .updated: return "updated"
            case .metadata: return "metadata"
            }
        }
        // user, first chunk, second chunk of msg_1, tool result attached, next response.
        #expect(kinds == ["added user", "added assistant", "updated", "updated", "added assistant"])
        #expect(follower.committedByteOffset == bytes.count)
    }

    @Test func followerEndsWithTheSameEntriesAsTheFullBuild() throws {
        let bytes = try TestFiles.corpusFile("daaain__claude-code-log__7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl")
        var follower = SessionFollower()

        _ = follower.append(bytes.prefix(300_000))
        _ = follower.append(bytes.dropFirst(300_000))
        let built = ConversationBuilder.build(records: SessionParser.parse(bytes).records)

        #expect(follower.entries.count == built.entries.count)
    }

    @Test func aTornLineWaitsForItsEnd() {
        let line = Array(#"{"type":"user","uuid":"u1","message":{"role":"user","content":"hello"}}"#.utf8) + [0x0A]
        var follower = SessionFollower()

        let before = follower.append(line.prefix(20))
        let after = follower.append(line.dropFirst(20))

        #expect(before.events.isEmpty && before.records.isEmpty)
        #expect(after.records.count == 1)
        #expect(after.events.count == 1)
    }

    @Test func titleRecordsAreReportedAsMetadata() {
        var follower = SessionFollower(byteOffset: 1000, lineNumber: 40)

        let update = follower.append(jsonl(#"{"type":"custom-title","customTitle":"Renamed","sessionId":"s"}"#))

        guard case .metadata(let record) = update.events.first else {
            Issue.record("no metadata event")
            return
        }
        #expect(record.kind == .customTitle && record.value == "Renamed")
        #expect(update.records.first?.location == LineLocation(line: 40, byteOffset: 1000))
    }
}
