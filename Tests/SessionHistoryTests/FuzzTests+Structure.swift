import Foundation
import RWSTestSupport
import Testing

@testable import SessionHistory

/// Structural damage to real lines: numbers, strings, nesting, types and members changed in place.
extension FuzzTests {
    /// Numbers no reader expects: past 64 bits, negative, fractional, denormal, out of `Double`.
    static let hostileNumbers = [
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "99999999999999999999999999999999", "1e308", "1e400", "-1e400", "-1", "0", "1.5", "-0.0",
        "4.9e-324", "123456789012345678901234567890e10", "1E+2", "0.0000001",
    ]

    /// Strings no reader expects (as JSON text): control and escape sequences, lone surrogates,
    /// impossible dates, ids every line shares, record type names.
    static let hostileStrings = [
        #""""#, #""same""#, #""\u001b[2J\u001b]0;pwned\u0007\r\u009b31m""#, "\"" + String(repeating: "x", count: 9_000) + "\"",
        #""2025-13-45T99:99:99.999Z""#, #""9999-12-31T23:59:59.999+99:99""#, #""0000-00-00T00:00:00Z""#, #""\u0000""#,
        #""<command-name>/x</command-name>""#, #""agent-1""#, #""\udcb2\ud800x""#, "\"🚀\u{FE0F}\u{200B}\"",
        #""toolu_1""#, #""user""#, #""assistant""#, #""compact_boundary""#,
    ]

    /// Values of every type, to swap in for a value of another.
    static let otherTypes = [
        "null", "true", "false", "0", #""""#, "[]", "{}", #"[1,"a",{}]"#, #"{"type":"text","text":42}"#,
        #"{"type":"tool_use","id":7,"name":null,"input":"x"}"#,
    ]

    /// Members that change what a record is or how it links, put first in an object.
    static let members = [
        #""parentUuid":null,"#, #""uuid":"same","#, #""parentUuid":"same","#, #""message":"bare text","#,
        #""timestamp":"bad","#, #""type":"user","#, #""type":"assistant","#, #""isSidechain":true,"#,
        #""logicalParentUuid":"same","#, #""subtype":"compact_boundary","#, #""content":[[[]]],"#,
    ]

    private static func mutate(_ line: [UInt8], spans: FuzzSpans? = nil, using random: inout SeededRandom) -> [UInt8] {
        let spans = spans ?? FuzzSpans(line)
        var bytes = line
        func pick(_ kind: FuzzSpans.Kind?) -> Range<Int>? { spans.ranges(of: kind).randomElement(using: &random) }
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            guard let range = pick(.number) else { return line }
            bytes.replaceSubrange(range, with: Array((hostileNumbers.randomElement(using: &random) ?? "0").utf8))
        case 1:
            guard let range = pick(.string) else { return line }
            bytes.replaceSubrange(range, with: Array((hostileStrings.randomElement(using: &random) ?? "0").utf8))
        case 2:
            guard let range = pick(nil) else { return line }
            let depth = [1, 2, 40, 511, 513, 3_000].randomElement(using: &random) ?? 1
            let (open, close) = Bool.random(using: &random) ? ("[", "]") : (#"{"content":"#, "}")
            bytes.insert(contentsOf: Array(String(repeating: close, count: depth).utf8), at: range.upperBound)
            bytes.insert(contentsOf: Array(String(repeating: open, count: depth).utf8), at: range.lowerBound)
        case 3:
            guard let range = pick(nil) else { return line }
            bytes.replaceSubrange(range, with: Array((otherTypes.randomElement(using: &random) ?? "null").utf8))
        default:
            guard let range = pick(.object) else { return line }
            bytes.insert(contentsOf: Array((members.randomElement(using: &random) ?? "").utf8), at: range.lowerBound + 1)
        }
        return bytes
    }

    /// Real lines up to 2 KiB (most lines are; longer ones only slow the run down).
    private static func corpusLines() throws -> [[UInt8]] {
        try TestFiles.corpusNames().flatMap { name in
            try TestFiles.corpusFile(name).split(separator: 0x0A).filter { $0.count <= 2_048 }.map(Array.init)
        }
    }

    /// What the commands do with a file, on one damaged file (rendered in every format on every
    /// fourth case: rendering costs most and is fuzzed by the other tests too).
    private static func exercise(_ bytes: [UInt8], rendering: Bool) -> ParsedLines {
        let parsed = SessionParser.parse(bytes)
        let conversation = ConversationBuilder.build(records: parsed.records)
        if rendering {
            _ = conversation.plainText()
            _ = conversation.markdown()
            _ = conversation.render(.json)
            _ = ConversationBuilder.transcript(records: parsed.records, isSidechainTranscript: true).plainText()
        }
        _ = (conversation.usage + conversation.usage + conversation.usage).total.totalTokens
        let window = min(bytes.count, 700)
        _ = SessionSummarizer.summarize(
            fileName: "f.jsonl", fileSize: bytes.count, head: Array(bytes.prefix(window)),
            tail: Array(bytes.suffix(window)))
        return parsed
    }

    @Test func tenThousandStructuralMutationsOfCorpusLinesNeverCrashOrHang() throws {
        let lines = try Self.corpusLines()
        let spans = lines.map(FuzzSpans.init)
        #expect(lines.count > 1_000)
        var random = SeededRandom(seed: 0xC0FFEE)
        let clock = ContinuousClock()
        var slowest: Duration = .zero
        var slowestCase = -1
        var decoded = 0, failed = 0
        var miscounted: [Int] = []

        for number in 0..<10_000 {
            var file: [UInt8] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let source = Int.random(in: 0..<lines.count, using: &random)
                var line = Self.mutate(lines[source], spans: spans[source], using: &random)
                for _ in 0..<Int.random(in: 0...2, using: &random) { line = Self.mutate(line, using: &random) }
                file += line + [0x0A]
            }
            var parsed = ParsedLines()
            let elapsed = clock.measure { parsed = Self.exercise(file, rendering: number % 4 == 0) }
            if parsed.records.count + parsed.issues.count + parsed.blankLineCount != parsed.lineCount { miscounted.append(number) }
            decoded += parsed.records.count
            failed += parsed.issues.count
            if elapsed > slowest { (slowest, slowestCase) = (elapsed, number) }
        }

        #expect(miscounted.isEmpty, "cases whose lines were neither records, issues nor blank: \(miscounted.prefix(10))")
        #expect(decoded > 10_000 && failed > 1_000, "the mutations must leave both readable and broken lines")
        // A hang is a case taking seconds; in a debug build on a loaded machine each takes milliseconds.
        #expect(slowest < .seconds(5), "case \(slowestCase) of seed 0xC0FFEE took \(slowest)")
    }

    @Test func usageFromEveryNumberTheFuzzerWritesNeverTraps() {
        for number in Self.hostileNumbers {
            let line =
                #"{"type":"assistant","uuid":"a","message":{"id":"m","usage":{"input_tokens":\#(number),"#
                + #""output_tokens":\#(number),"cache_read_input_tokens":\#(number),"cache_creation_input_tokens":\#(number)}}}"#
            let records = SessionParser.parse(jsonl(line, line.replacingOccurrences(of: #""m""#, with: #""n""#))).records
            let usage = UsageReport(records: records)
            #expect(usage.responseCount == 2, "\(number)")
            _ = usage.total.totalTokens
        }
    }
}
