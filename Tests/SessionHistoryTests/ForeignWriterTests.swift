import Foundation
import Testing

@testable import SessionHistory

/// Files written by other tools, test suites and older or newer CLIs: the conversation never
/// shows fewer messages than reading the file top to bottom, unless the file really forks.
@Suite struct ForeignWriterTests {
    private func conversation(_ bytes: [UInt8]) -> Conversation {
        ConversationBuilder.build(records: SessionParser.parse(bytes).records)
    }

    private func texts(_ conversation: Conversation) -> [String] {
        conversation.entries.compactMap { entry in
            switch entry {
            case .user(let turn): return "U:" + turn.text
            case .assistant(let turn): return "A:" + turn.text
            default: return nil
            }
        }
    }

    @Test func recordsWithNullParentOnEveryLineAreReadInFileOrder() {
        let bytes = jsonl(
            #"{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"one"}}"#,
            #"{"type":"assistant","uuid":"a1","parentUuid":null,"message":{"id":"m1","role":"assistant","#
                + #""content":[{"type":"text","text":"two"}]}}"#,
            #"{"type":"user","uuid":"u2","parentUuid":null,"message":{"role":"user","content":"three"}}"#,
            #"{"type":"assistant","uuid":"a2","parentUuid":null,"message":{"id":"m2","role":"assistant","#
                + #""content":[{"type":"text","text":"four"}]}}"#
        )

        let result = conversation(bytes)

        #expect(texts(result) == ["U:one", "A:two", "U:three", "A:four"])
        #expect(result.otherLeafCount == 0)
    }

    @Test func recordsWithoutAnyLinkFieldsOrUuidsAreReadInFileOrder() {
        let bytes = jsonl(
            #"{"type":"user","message":{"role":"user","content":"hello"}}"#,
            #"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"hi"}]}}"#,
            #"{"type":"user","message":{"role":"user","content":"bye"}}"#
        )

        #expect(texts(conversation(bytes)) == ["U:hello", "A:hi", "U:bye"])
    }

    @Test func everyLineSharingOneUuidIsNotMistakenForABranch() {
        let bytes = jsonl(
            #"{"type":"user","uuid":"same","parentUuid":null,"message":{"role":"user","content":"q1"}}"#,
            #"{"type":"assistant","uuid":"same","parentUuid":"same","message":{"id":"m1","content":[{"type":"text","text":"r1"}]}}"#,
            #"{"type":"user","uuid":"same","parentUuid":"same","message":{"role":"user","content":"q2"}}"#,
            #"{"type":"assistant","uuid":"same","parentUuid":"same","message":{"id":"m2","content":[{"type":"text","text":"r2"}]}}"#
        )

        #expect(texts(conversation(bytes)) == ["U:q1", "A:r1", "U:q2", "A:r2"])
    }

    @Test func aRecordWrittenTwiceIsACopyNotABranch() {
        let bytes = jsonl(
            #"{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"q1"}}"#,
            #"{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m1","content":[{"type":"text","text":"r1"}]}}"#,
            #"{"type":"user","uuid":"u2","parentUuid":"a1","message":{"role":"user","content":"q2"}}"#,
            #"{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m3","content":[{"type":"text","text":"r1 again"}]}}"#,
            #"{"type":"user","uuid":"u3","parentUuid":"a1","message":{"role":"user","content":"q3"}}"#
        )

        let result = conversation(bytes)

        #expect(texts(result) == ["U:q1", "A:r1", "U:q2", "A:r1 again", "U:q3"])
        #expect(result.otherLeafCount == 0)
    }

    @Test func aRealForkStillShowsOnlyTheLatestBranch() {
        let bytes = jsonl(
            #"{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"q1"}}"#,
            #"{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m1","content":[{"type":"text","text":"r1"}]}}"#,
            #"{"type":"user","uuid":"u2","parentUuid":"a1","message":{"role":"user","content":"old edit"}}"#,
            #"{"type":"user","uuid":"u3","parentUuid":"a1","message":{"role":"user","content":"new edit"}}"#
        )

        let result = conversation(bytes)

        #expect(texts(result) == ["U:q1", "A:r1", "U:new edit"])
        #expect(result.otherLeafCount == 1)
    }

    @Test func aParentNamedOnlyInAnotherFileContinuesFromThePreviousRecord() {
        let bytes = jsonl(
            #"{"type":"user","uuid":"u1","parentUuid":"in-an-older-file","message":{"role":"user","content":"q1"}}"#,
            #"{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m1","content":[{"type":"text","text":"r1"}]}}"#,
            #"{"type":"user","uuid":"u2","parentUuid":"lost","message":{"role":"user","content":"q2"}}"#,
            #"{"type":"assistant","uuid":"a2","parentUuid":"u2","message":{"id":"m2","content":[{"type":"text","text":"r2"}]}}"#
        )

        #expect(texts(conversation(bytes)) == ["U:q1", "A:r1", "U:q2", "A:r2"])
    }

    @Test func aMessageGivenAsAStringIsItsText() {
        let bytes = jsonl(
            #"{"type":"user","uuid":"u1","parentUuid":null,"message":"plain prompt"}"#,
            #"{"type":"assistant","uuid":"a1","parentUuid":"u1","message":"plain answer"}"#
        )

        let result = conversation(bytes)

        #expect(texts(result) == ["U:plain prompt", "A:plain answer"])
        #expect(result.userTurns.first?.kind == .prompt)
    }

    @Test func linesThatAreJSONButNotObjectsAreReportedAndSkipped() {
        let bytes = jsonl(
            "42",
            #""a string""#,
            #"[{"type":"user","message":"inside an array"}]"#,
            "null",
            "true",
            #"{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"real"}}"#,
            "-1e400",
            #"{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m1","content":[{"type":"text","text":"answer"}]}}"#
        )

        let parsed = SessionParser.parse(bytes)

        #expect(parsed.records.count == 2)
        #expect(parsed.issues.map(\.location.line) == [1, 2, 3, 4, 5, 7])
        #expect(texts(ConversationBuilder.build(records: parsed.records)) == ["U:real", "A:answer"])
    }

    @Test func recordsWithoutTimestampsAreShownAndSummarised() {
        let bytes = jsonl(
            #"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"no clock here"}}"#,
            #"{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m1","content":[{"type":"text","text":"fine"}]}}"#
        )

        let result = conversation(bytes)
        let summary = SessionSummarizer.summarize(fileName: "s.jsonl", fileSize: bytes.count, head: bytes, tail: bytes)
        let text = result.plainText()

        #expect(texts(result) == ["U:no clock here", "A:fine"])
        #expect(summary.title == "no clock here")
        #expect(summary.firstTimestamp == nil && summary.lastTimestamp == nil)
        #expect(text.contains("no clock here") && text.contains("fine"))
        #expect(!text.contains("[]") && text.contains("\nClaude"), "\(text)")
        let markdown = result.markdown()
        #expect(!markdown.contains(" · \n") && markdown.contains("Claude\n"), "\(markdown)")
    }

    @Test func contentGivenAsAnArrayOfBareStringsIsShownAsText() {
        let bytes = jsonl(
            #"{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":["first part","second part"]}}"#,
            #"{"type":"assistant","uuid":"a1","parentUuid":"u1","#
                + #""message":{"id":"m1","content":["plain answer",{"type":"text","text":"block"}]}}"#
        )

        #expect(texts(conversation(bytes)) == ["U:first part\nsecond part", "A:plain answer\n\nblock"])
    }

    @Test func aSubagentFileOpenedOnItsOwnShowsItsConversation() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rws-agent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("agent-a1b2c3d4.jsonl")
        let source = try TestFiles.corpusFile("daaain__claude-code-log__agent-c8d9b115.jsonl")
        try Data(source).write(to: file)

        let loaded = try LocalSession.load(at: file)
        let plain = ConversationBuilder.transcript(records: SessionParser.parse(source).records, isSidechainTranscript: true)

        #expect(loaded.conversation.entries.count == plain.entries.count)
        #expect(loaded.conversation.assistantTurns.count > 3)
        let opening = try #require(loaded.conversation.assistantTurns.first?.text.prefix(40))
        #expect(loaded.render(.text).contains(opening))
    }

    @Test func theCorpusShowsAtLeastAsManyMessagesAsAFileOrderReadingWhereNothingForks() throws {
        for name in try TestFiles.corpusNames() {
            let records = SessionParser.parse(try TestFiles.corpusFile(name)).records
            let isAgent = name.contains("agent-")
            let built = ConversationBuilder.transcript(records: records, isSidechainTranscript: isAgent)
            guard !Self.hasRealFork(records) else { continue }
            var plain = TranscriptAssembler(isSidechainTranscript: isAgent)
            for record in records { plain.add(record) }
            #expect(built.entries.count >= plain.entries.count, "\(name)")
        }
    }

    /// Two different records naming the same parent.
    private static func hasRealFork(_ records: [SessionRecord]) -> Bool {
        var childByParent: [String: String] = [:]
        for record in records where record.isTranscriptEntry {
            guard let parent = record.envelope.parentUuid, let uuid = record.envelope.uuid else { continue }
            if let other = childByParent[parent], other != uuid { return true }
            childByParent[parent] = uuid
        }
        return false
    }
}
