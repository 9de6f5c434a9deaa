import Foundation
import Testing

@testable import SessionHistory

/// A file read for its conversation (`SourceRetention.conversation`) is decoded a chunk at a time
/// and its records hold no part of it; what is shown must be exactly what the whole read shows.
@Suite struct SourceRetentionTests {
    @Test(arguments: try TestFiles.corpusNames())
    func everyCorpusFileRendersTheSameReadInChunksAsReadWhole(_ name: String) throws {
        let url = TestPaths.corpus.appendingPathComponent(name)

        let whole = try LocalSession.load(at: url)
        let chunked = try LocalSession.load(at: url, retention: .conversation)

        for format in ExportFormat.allCases {
            #expect(chunked.render(format) == whole.render(format), "\(format)")
        }
        #expect(chunked.lines.issues == whole.lines.issues)
        #expect(chunked.lines.lineCount == whole.lines.lineCount)
        #expect(chunked.summary == whole.summary)
    }

    @Test(arguments: [1, 7, 4096, 1 << 20])
    func chunkBoundariesAnywhereGiveTheSameRecordsLinesAndIssues(chunkSize: Int) throws {
        // Chunks of a few bytes cut every line at every kind of byte, and cost ~3 µs a byte in a debug
        // build: they read a small file whose longest line spans thousands of them. Bigger chunks read
        // the largest file, whose lines cross their boundaries. Each plus a blank line, a bad line and
        // a torn last line.
        let name = chunkSize < 4096 ? try longestLinedSmallFile() : try largestFile()
        var bytes = try TestFiles.corpusFile(name)
        bytes += Array("\n  \n{\"type\":\"user\",oops}\r\n{\"type\":\"assistant\",\"uuid\":\"torn".utf8)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rws-chunks-\(UUID().uuidString).jsonl")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let whole = SessionParser.parse(bytes)
        let chunked = try SessionParser.parseFile(at: file, retention: .conversation, chunkSize: chunkSize)

        #expect(chunked.records == whole.records.map { $0.keepingConversation() })
        #expect(chunked.issues == whole.issues)
        #expect(chunked.issues.count == 2)
        #expect((chunked.lineCount, chunked.blankLineCount) == (whole.lineCount, whole.blankLineCount))
        #expect(chunked.consumedByteCount == bytes.count)
    }

    @Test func recordsReadForTheConversationHoldNoSliceOfTheFile() throws {
        let line =
            #"{"type":"user","uuid":"u1","toolUseResult":{"stdout":"big"},"message":{"role":"user","content":["#
            + #"{"type":"tool_result","tool_use_id":"t1","content":[{"type":"image","source":{"type":"base64","data":"QUJD"}}]}]}}"#
        let call =
            #"{"type":"assistant","uuid":"a1","message":{"id":"m1","content":["#
            + #"{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}},{"type":"mystery","x":1}]}}"#
        let records = SessionParser.parse(jsonl(line, call)).records.map { $0.keepingConversation() }

        #expect(records.allSatisfy { $0.raw.bytes.isEmpty })
        #expect(records[0].user?.toolUseResult == nil)
        let image = try #require(records[0].user?.content.first?.toolResult?.content.first)
        guard case .image(let media) = image, let data = media.data else { throw Failure("no image data: \(image)") }
        #expect(data.text == #""QUJD""# && data.bytes.startIndex == 0)
        let blocks = try #require(records[1].assistant?.content)
        #expect(blocks[0].toolUse?.input.text == #"{"command":"ls"}"#)
        #expect(blocks[0].toolUse?.input.bytes.startIndex == 0)
        guard case .unknown(let unknown) = blocks[1] else { throw Failure("not unknown: \(blocks[1])") }
        #expect(unknown.raw.text == #"{"type":"mystery","x":1}"# && unknown.raw.bytes.startIndex == 0)
    }

    @Test func anUnreadableFileIsReportedByPath() {
        let path = "/nonexistent/rws-\(UUID().uuidString).jsonl"
        #expect(throws: SessionHistoryError.self) {
            try SessionParser.parseFile(at: URL(fileURLWithPath: path), retention: .conversation)
        }
    }

    private func largestFile() throws -> String {
        try TestFiles.corpusNames().max { try size(of: $0) < size(of: $1) } ?? ""
    }

    /// The corpus file under 256 KiB with the longest line.
    private func longestLinedSmallFile() throws -> String {
        let small = try TestFiles.corpusNames().filter { try size(of: $0) < 256 << 10 }
        let longestLines = try small.map { name in
            try TestFiles.corpusFile(name).split(separator: UInt8(ascii: "\n")).map(\.count).max() ?? 0
        }
        return zip(small, longestLines).max { $0.1 < $1.1 }?.0 ?? ""
    }

    private func size(of name: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: TestPaths.corpus.appendingPathComponent(name).path)
        return (attributes[.size] as? Int) ?? 0
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// `render(_:options:into:)` hands the rendering on as it is written, not at the end.
@Suite struct StreamedRenderTests {
    @Test(arguments: [ExportFormat.text, .markdown])
    func piecesArriveAsTheyAreWrittenAndAddUpToTheWholeRendering(format: ExportFormat) throws {
        // 2,000 prompts and answers of ~300 bytes, chained: about 1 MB rendered.
        var lines: [String] = []
        for turn in 0..<2000 {
            let text = "turn \(turn) \u{1B}[31m " + String(repeating: "word ", count: 60)
            let parent = turn == 0 ? "null" : "\"a\(turn - 1)\""
            lines.append(#"{"type":"user","uuid":"u\#(turn)","parentUuid":\#(parent),"message":{"role":"user","content":"\#(text)"}}"#)
            lines.append(
                #"{"type":"assistant","uuid":"a\#(turn)","parentUuid":"u\#(turn)","message":{"id":"m\#(turn)","#
                    + #""content":[{"type":"text","text":"\#(text)"}]}}"#)
        }
        let conversation = ConversationBuilder.build(records: SessionParser.parse(Array(lines.joined(separator: "\n").utf8)).records)
        var options = RenderOptions()
        options.neutralizesControlCharacters = true

        var pieces: [String] = []
        conversation.render(format, options: options) { pieces.append($0) }

        #expect(pieces.joined() == conversation.render(format, options: options))
        #expect(pieces.count >= 10, "\(pieces.count) pieces")
        #expect(pieces.dropLast().allSatisfy { $0.utf8.count >= 1 << 16 && $0.utf8.count < 1 << 17 })
        #expect(!pieces.joined().contains("\u{1B}"))
    }
}
