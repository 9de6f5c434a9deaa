import Testing

@testable import SessionHistory

/// Token counts come from files anyone can write: no number may trap the reader.
@Suite struct UsageLimitTests {
    private func assistant(_ id: String, tokens: String) -> String {
        #"{"type":"assistant","uuid":"\#(id)","message":{"id":"\#(id)","model":"m","usage":{"input_tokens":\#(tokens),"#
            + #""output_tokens":\#(tokens),"cache_creation_input_tokens":\#(tokens),"cache_read_input_tokens":1}}}"#
    }

    @Test func usageTotalsPastSixtyFourBitsSaturateInsteadOfTrapping() {
        let bytes = jsonl(assistant("a", tokens: "9223372036854775807"), assistant("b", tokens: "9223372036854775807"))

        let usage = UsageReport(records: SessionParser.parse(bytes).records)

        #expect(usage.responseCount == 2)
        #expect(usage.total.inputTokens == Int.max)
        #expect(usage.byModel["m"]?.outputTokens == Int.max)
        #expect(usage.total.totalTokens == Int.max)
        #expect((usage + usage).total.cacheCreationInputTokens == Int.max)
    }

    @Test func countsWiderThanSixtyFourBitsReadAsTheLargestCount() {
        let bytes = jsonl(assistant("a", tokens: "123456789012345678901234567890"), assistant("b", tokens: "1e400"))

        let usage = UsageReport(records: SessionParser.parse(bytes).records)

        #expect(usage.total.inputTokens == Int.max)
        #expect(usage.total.cacheReadInputTokens == 2)
    }

    @Test func negativeCountsSaturateAtTheBottomToo() {
        let bytes = jsonl(assistant("a", tokens: "-9223372036854775808"), assistant("b", tokens: "-5"))

        let usage = UsageReport(records: SessionParser.parse(bytes).records)

        #expect(usage.total.inputTokens == Int.min)
        #expect(usage.total.totalTokens == Int.min + 2)
    }

    @Test func aSessionWithHugeUsageStillRendersInEveryFormat() {
        let bytes = jsonl(assistant("a", tokens: "9223372036854775807"), assistant("b", tokens: "9223372036854775807"))
        let conversation = ConversationBuilder.build(records: SessionParser.parse(bytes).records)

        #expect(conversation.render(.markdown).contains("9223372036854775807"))
        #expect(!conversation.render(.json).isEmpty)
    }
}
