import Testing

@testable import SessionHistory

@Suite struct LineReadingTests {
    private let user = #"{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}"#
    private let assistant =
        #"{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m1","model":"x","#
        + #""content":[{"type":"text","text":"hello"}]}}"#

    @Test func readsCRLFLinesLikeLFLines() {
        let bytes = Array((user + "\r\n" + assistant + "\r\n").utf8)

        let parsed = SessionParser.parse(bytes)

        #expect(parsed.issues.isEmpty)
        #expect(parsed.records.map(\.type) == ["user", "assistant"])
        #expect(parsed.records[1].raw.text == assistant)
    }

    @Test func countsBlankLinesWithoutReportingThem() {
        let parsed = SessionParser.parse(jsonl("", user, "   ", "\t", assistant, ""))

        #expect(parsed.records.count == 2)
        #expect(parsed.blankLineCount == 4)
        #expect(parsed.lineCount == 6)
        #expect(parsed.issues.isEmpty)
        #expect(parsed.records.map(\.location.line) == [2, 5])
    }

    @Test func reportsATornLastLineAndKeepsTheRest() {
        let torn = String(assistant.prefix(40))
        let bytes = Array((user + "\n" + torn).utf8)

        let parsed = SessionParser.parse(bytes)

        #expect(parsed.records.count == 1)
        #expect(parsed.issues.count == 1)
        #expect(parsed.issues.first?.location == LineLocation(line: 2, byteOffset: user.utf8.count + 1))
        guard case .tornLastLine = parsed.issues.first?.reason else {
            Issue.record("not reported as torn")
            return
        }
    }

    @Test func acceptsAFinalLineWithoutNewline() {
        let parsed = SessionParser.parse(Array((user + "\n" + assistant).utf8))

        #expect(parsed.records.count == 2)
        #expect(parsed.issues.isEmpty)
    }

    @Test func countsABadLineWithItsNumberAndGoesOn() {
        let parsed = SessionParser.parse(jsonl(user, #"{"type":"user","message":"#, "not json", assistant))

        #expect(parsed.records.count == 2)
        #expect(parsed.issues.map(\.location.line) == [2, 3])
    }

    @Test func keepsALineWithALoneSurrogateEscape() {
        let line =
            #"{"type":"user","uuid":"u1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","#
            + #""content":"caf\udcb2 output"}]}}"#

        let parsed = SessionParser.parse(jsonl(line))

        #expect(parsed.issues.isEmpty)
        #expect(parsed.records.first?.user?.content.first?.toolResult?.text == "caf\u{FFFD} output")
    }

    @Test func keepsALineWithRawInvalidUTF8() {
        var bytes = Array(#"{"type":"user","uuid":"u1","message":{"role":"user","content":"a"#.utf8)
        bytes += [0xFE, 0x80]
        bytes += Array(#"b"}}"#.utf8) + [0x0A]

        let parsed = SessionParser.parse(bytes)

        #expect(parsed.records.first?.user?.text == "a\u{FFFD}\u{FFFD}b")
    }

    @Test func readsAFiveMegabyteLine() {
        let big = String(repeating: "0123456789abcdef", count: 5 * 1024 * 1024 / 16)
        let line =
            #"{"type":"user","uuid":"u1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","# + #""content":""#
            + big + #""}]}}"#

        let parsed = SessionParser.parse(jsonl(user, line, assistant))

        #expect(parsed.issues.isEmpty)
        #expect(parsed.records.count == 3)
        #expect(parsed.records[1].user?.content.first?.toolResult?.text.utf8.count == big.utf8.count)
        #expect(line.utf8.count > 5 * 1024 * 1024)
    }

    @Test func streamGivesTheSameRecordsWhateverTheChunkSize() throws {
        let bytes = try TestFiles.corpusFile("marot__spotter__short.jsonl")
        let whole = SessionParser.parse(bytes)

        for chunkSize in [1, 7, 100, 4096] {
            var stream = SessionStream()
            var collected = ParsedLines()
            var start = 0
            while start < bytes.count {
                collected.append(stream.append(bytes[start..<min(start + chunkSize, bytes.count)]))
                start += chunkSize
            }
            collected.append(stream.finish())
            #expect(collected.records == whole.records.map { $0 }, "chunk size \(chunkSize)")
            #expect(stream.committedByteOffset == bytes.count)
        }
    }

    @Test func streamHoldsAnIncompleteLineUntilItsEndArrives() {
        var stream = SessionStream()
        let line = Array((user + "\n").utf8)

        let first = stream.append(line.prefix(10))
        let second = stream.append(line.dropFirst(10))

        #expect(first.records.isEmpty)
        #expect(stream.pendingByteCount == 0)
        #expect(second.records.count == 1)
        #expect(second.records.first?.location == LineLocation(line: 1, byteOffset: 0))
    }

    @Test func byteRangeSkipsTheCutFirstLineAndKeepsFileOffsets() {
        let bytes = jsonl(user, assistant, user)
        let cut = user.utf8.count / 2

        let parsed = SessionParser.parse(
            range: Array(bytes[cut...]), fileOffset: cut, startsAtLineStart: false, reachesEndOfFile: true
        )

        #expect(parsed.records.map(\.type) == ["assistant", "user"])
        #expect(parsed.records.first?.location.byteOffset == user.utf8.count + 1)
        #expect(parsed.issues.isEmpty)
    }

    @Test func byteRangeLeavesACutLastLineUnconsumed() {
        let bytes = jsonl(user, assistant)
        let end = bytes.count - 10

        let parsed = SessionParser.parse(range: Array(bytes[..<end]), fileOffset: 0, startsAtLineStart: true, reachesEndOfFile: false)

        #expect(parsed.records.count == 1)
        #expect(parsed.consumedByteCount == user.utf8.count + 1)
    }
}

/// Identifiers a run of records repeats are kept once (`StringPool`), and read the same as before.
@Suite struct RepeatedIdentifierTests {
    @Test func aRunOfRecordsSharesOneCopyOfEachRepeatedIdentifier() throws {
        let session = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"
        let lines = (0..<3).map { index in
            #"{"type":"user","parentUuid":\#(index == 0 ? "null" : "\"00000000-0000-0000-0000-00000000000\(index - 1)\"")"#
                + #","uuid":"00000000-0000-0000-0000-00000000000\#(index)","sessionId":"\#(session)","#
                + #""cwd":"/home/someone/work/a-project-with-a-long-name","message":{"role":"user","content":"hi"}}"#
        }
        let records = SessionParser.parse(Array(lines.joined(separator: "\n").utf8)).records

        #expect(records.map(\.envelope.sessionId) == [session, session, session])
        #expect(storage(of: records[2].envelope.sessionId) == storage(of: records[0].envelope.sessionId))
        #expect(storage(of: records[2].envelope.cwd) == storage(of: records[0].envelope.cwd))
        #expect(records[1].envelope.parentUuid == records[0].envelope.uuid)
        #expect(storage(of: records[1].envelope.parentUuid) == storage(of: records[0].envelope.uuid))
        #expect(storage(of: records[1].envelope.uuid) != storage(of: records[0].envelope.uuid))
    }

    @Test func anEscapedOrDifferentValueIsReadAsWritten() {
        let first = #"{"type":"user","uuid":"u1","sessionId":"session-0000000000000001","message":{"content":"a"}}"#
        let escaped = #"{"type":"user","uuid":"u2","sessionId":"session-000000000000000\u0031","message":{"content":"b"}}"#
        let other = #"{"type":"user","uuid":"u3","sessionId":"session-0000000000000002","message":{"content":"c"}}"#
        let records = SessionParser.parse(jsonl(first, escaped, other)).records

        #expect(records.map(\.envelope.sessionId) == ["session-0000000000000001", "session-0000000000000001", "session-0000000000000002"])
    }

    /// Where a string's UTF-8 lives (two equal strings read separately live in two places).
    private func storage(of string: String?) -> UnsafeRawPointer? {
        guard var string else { return nil }
        return string.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }
}
