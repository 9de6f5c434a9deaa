import RWSTestSupport
import Testing

@testable import SessionHistory

/// Random damage to real lines must never crash, hang or blow the stack.
@Suite struct FuzzTests {
    // Random draws come from SeededRandom (SplitMix64), so a failure reproduces.
    private static func mutate(_ line: [UInt8], using random: inout SeededRandom) -> [UInt8] {
        var bytes = line
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
        case 1:
            for _ in 0..<Int.random(in: 1...8, using: &random) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
        case 2:
            let depth = Int.random(in: 100...20_000, using: &random)
            let at = Int.random(in: 0...bytes.count, using: &random)
            let opener = Bool.random(using: &random) ? #"{"a":"# : "["
            // String(repeating:) builds the same bytes as joining arrays, many times faster in a debug build.
            bytes.insert(contentsOf: Array(String(repeating: opener, count: depth).utf8), at: at)
        case 3:
            let tokens = [#"\u"#, #"\udcb2"#, #"""#, "\\", "{", "}", "[", "]", ",", ":", "null", "-", "1e", "\n"]
            let token = Array(tokens[Int.random(in: 0..<tokens.count, using: &random)].utf8)
            bytes.insert(contentsOf: token, at: Int.random(in: 0...bytes.count, using: &random))
        default:
            if bytes.count > 2 {
                let from = Int.random(in: 0..<bytes.count - 1, using: &random)
                bytes.removeSubrange(from..<min(bytes.count, from + Int.random(in: 1...64, using: &random)))
            }
        }
        return bytes
    }

    @Test func thousandsOfMutatedCorpusLinesNeverCrashTheParser() throws {
        let source =
            try TestFiles.corpusFile("marot__spotter__tool_heavy.jsonl")
            + TestFiles.corpusFile("daaain__claude-code-log__ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl")
        let lines = source.split(separator: 0x0A).map(Array.init)
        var random = SeededRandom(seed: 0x5EED)
        let clock = ContinuousClock()
        let started = clock.now
        var decoded = 0, failed = 0

        for _ in 0..<4_000 {
            let line = Self.mutate(lines[Int.random(in: 0..<lines.count, using: &random)], using: &random)
            let parsed = SessionParser.parse(line + [0x0A])
            decoded += parsed.records.count
            failed += parsed.issues.count
            #expect(parsed.records.count + parsed.issues.count + parsed.blankLineCount == parsed.lineCount)
            _ = ConversationBuilder.build(records: parsed.records).plainText()
        }

        #expect(decoded > 0 && failed > 0)
        #expect(clock.now - started < .seconds(60))
    }

    @Test func mutatedWholeFilesStillBuildConversations() throws {
        let source = try TestFiles.corpusFile("daaain__claude-code-log__29ccd257-68b1-427f-ae5f-6524b7cb6f20.jsonl")
        var random = SeededRandom(seed: 42)

        for _ in 0..<200 {
            let damaged = Self.mutate(source, using: &random)
            let parsed = SessionParser.parse(damaged)
            let conversation = ConversationBuilder.build(records: parsed.records)
            _ = conversation.markdown()
            _ = SessionSummarizer.summarize(
                fileName: "x", fileSize: damaged.count, head: Array(damaged.prefix(4_096)), tail: Array(damaged.suffix(4_096)))
        }
    }
}
