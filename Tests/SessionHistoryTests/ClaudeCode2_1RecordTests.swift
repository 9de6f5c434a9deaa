import Testing

@testable import SessionHistory

/// Records Claude Code 2.1.3xx writes (shapes copied from files written by 2.1.330 in the oracle
/// tests, trimmed to the fields that matter).
@Suite struct ClaudeCode2_1RecordTests {
    @Test func theLastCostStateInTheTailIsTheSessionsCost() {
        let bytes = jsonl(
            #"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","timestamp":"2026-11-22T16:45:52.600Z","#
                + #""message":{"role":"user","content":"hi"}}"#,
            #"{"type":"cost-state","sessionId":"s","totalCostUSD":0.000376,"totalAPIDuration":140}"#,
            #"{"type":"cost-state","sessionId":"s","totalCostUSD":0.0005639999999999998,"totalAPIDuration":150}"#
        )
        let summary = SessionSummarizer.summarize(fileName: "s.jsonl", fileSize: bytes.count, head: bytes, tail: bytes)
        #expect(summary.costUSD == 0.0005639999999999998)
        let records = SessionParser.parse(bytes).records
        #expect(records[1].kind == .costState(CostStateRecord(totalCostUSD: 0.000376)))
    }

    @Test func knownIgnorableTypesAreKeptRawAndDecodedTypesAreNot() {
        let bytes = jsonl(
            #"{"type":"atis-latch","atis":"","sessionId":"s"}"#,
            #"{"type":"api-request","sessionId":"s","id":"r","querySource":"sdk"}"#,
            #"{"type":"last-prompt","lastPrompt":"run echo","leafUuid":"a","sessionId":"s"}"#,
            #"{"type":"queue-operation","operation":"dequeue","sessionId":"s"}"#
        )
        let records = SessionParser.parse(bytes).records
        #expect(records.map { $0.kind == .unknown } == [true, true, false, false])
        for record in records { #expect(SessionRecordTypes.isKnown(record.type ?? "")) }
        #expect(!SessionRecordTypes.isKnown("brand-new-record"))
        // Every decoded type really decodes to something other than `unknown`.
        #expect(SessionRecordTypes.decoded.isDisjoint(with: SessionRecordTypes.ignored.keys))
    }

    /// An auto-compaction that keeps the prompt that triggered it: written before the boundary,
    /// shown after the summary when resumed (Claude Code sends summary, then that prompt).
    @Test func theResumeViewShowsAPreservedPromptAfterTheSummary() {
        let bytes = jsonl(
            #"{"type":"user","uuid":"p1","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"first"}}"#,
            #"{"type":"assistant","uuid":"a1","parentUuid":"p1","sessionId":"s","message":{"id":"m1","role":"assistant","#
                + #""model":"x","content":[{"type":"text","text":"Big answer."}]}}"#,
            #"{"type":"user","uuid":"p2","parentUuid":"a1","sessionId":"s","message":{"role":"user","content":"second prompt"}}"#,
            #"{"type":"system","subtype":"compact_boundary","uuid":"b","parentUuid":null,"logicalParentUuid":"p2","#
                + #""sessionId":"s","compactMetadata":{"trigger":"auto","preTokens":990010,"preservedSegment":{"headUuid":"p2","#
                + #""anchorUuid":"sum","tailUuid":"p2"}}}"#,
            #"{"type":"user","uuid":"sum","parentUuid":"b","isCompactSummary":true,"sessionId":"s","message":{"role":"user","#
                + #""content":"This session is being continued…"}}"#,
            #"{"type":"attachment","uuid":"at","parentUuid":"sum","sessionId":"s","attachment":{"type":"date"}}"#,
            #"{"type":"assistant","uuid":"a2","parentUuid":"at","sessionId":"s","message":{"id":"m2","role":"assistant","#
                + #""model":"x","content":[{"type":"text","text":"After compaction."}]}}"#
        )
        let records = SessionParser.parse(bytes).records
        let resumed = ConversationBuilder.build(records: records, options: ConversationOptions(includePreCompactionHistory: false))
        #expect(resumed.entries.map(describe) == ["compaction", "summary", "prompt: second prompt", "answer: After compaction."])
        let full = ConversationBuilder.build(records: records)
        #expect(
            full.entries.map(describe) == [
                "prompt: first", "answer: Big answer.", "prompt: second prompt", "compaction", "summary", "answer: After compaction.",
            ])
    }

    private func describe(_ entry: ConversationEntry) -> String {
        switch entry {
        case .user(let turn): return turn.kind == .compactSummary ? "summary" : "prompt: " + turn.text
        case .assistant(let turn): return "answer: " + turn.text
        case .compaction: return "compaction"
        }
    }
}
