import Foundation
import Testing

@testable import SessionHistory

/// Every real session file of the corpus, checked against independently derived values.
@Suite struct CorpusTests {
    @Test func everyCorpusFileHasAnExpectation() throws {
        let names = try TestFiles.corpusNames()
        #expect(names == corpusExpectations.map(\.file))
        #expect(names.count == 32)
    }

    @Test(arguments: corpusExpectations)
    func fileParsesWithoutDroppingALine(_ expected: CorpusExpectation) throws {
        let bytes = try TestFiles.corpusFile(expected.file)

        let parsed = SessionParser.parse(bytes)

        #expect(parsed.issues.isEmpty, "\(parsed.issues)")
        #expect(parsed.records.count == expected.records)
        #expect(parsed.records.count + parsed.blankLineCount == parsed.lineCount)
        #expect(parsed.consumedByteCount == bytes.count)
        let types = Dictionary(grouping: parsed.records, by: { $0.type ?? "" }).mapValues(\.count)
        #expect(types == expected.types)
    }

    @Test(arguments: corpusExpectations)
    func typedRecordsMatchTheirTypeStrings(_ expected: CorpusExpectation) throws {
        let parsed = SessionParser.parse(try TestFiles.corpusFile(expected.file))

        let mismatched = parsed.records.filter { record in
            switch (record.type, record.kind) {
            case ("user", .user), ("assistant", .assistant), ("system", .system), ("progress", .progress),
                ("attachment", .attachment), ("summary", .summary), ("file-history-snapshot", .fileHistorySnapshot),
                ("queue-operation", .queueOperation), ("permission-mode", .metadata), ("last-prompt", .metadata):
                return false
            default:
                return true
            }
        }
        #expect(mismatched.isEmpty, "records decoded as the wrong kind: \(mismatched.map(\.location.line))")
    }

    @Test(arguments: corpusExpectations)
    func conversationFollowsTheChainRule(_ expected: CorpusExpectation) throws {
        let records = SessionParser.parse(try TestFiles.corpusFile(expected.file)).records

        let conversation = ConversationBuilder.transcript(records: records, isSidechainTranscript: expected.isSubagentFile)

        #expect(conversation.messageCount == expected.messages)
        #expect(conversation.toolCalls.count == expected.toolUses)
        let paired = conversation.assistantTurns.reduce(0) { count, turn in
            count + turn.toolUses.filter { turn.toolResults[$0.id] != nil }.count
        }
        #expect(paired == expected.pairedToolUses)
        #expect(conversation.otherLeafCount == expected.otherLeaves)
    }

    @Test(arguments: corpusExpectations)
    func tokenUsageIsCountedOncePerResponse(_ expected: CorpusExpectation) throws {
        let records = SessionParser.parse(try TestFiles.corpusFile(expected.file)).records

        let usage = UsageReport(records: records)

        #expect(usage.total == expected.usage)
        #expect(usage.responseCount == expected.responses)
    }

    @Test(arguments: corpusExpectations)
    func titleFromHeadAndTailFollowsClaudeCodesPrecedence(_ expected: CorpusExpectation) throws {
        let bytes = try TestFiles.corpusFile(expected.file)
        let window = SessionSummarizer.defaultWindow

        let summary = SessionSummarizer.summarize(
            fileName: expected.file, fileSize: bytes.count, head: Array(bytes.prefix(window)), tail: Array(bytes.suffix(window))
        )

        #expect(summary.title == expected.title)
        #expect(summary.titleSource == expected.titleSource)
    }
}
