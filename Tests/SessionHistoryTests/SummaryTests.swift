import Testing

@testable import SessionHistory

@Suite struct SummaryTests {
    @Test func readsSessionFieldsFromHeadAndTail() throws {
        let bytes = try TestFiles.corpusFile("marot__spotter__258c7280-ae70-4798-800f-63464d01a85d.jsonl")

        let summary = SessionSummarizer.summarize(
            fileName: "258c7280-ae70-4798-800f-63464d01a85d.jsonl", fileSize: bytes.count,
            head: Array(bytes.prefix(65_536)), tail: Array(bytes.suffix(65_536))
        )

        // Values read off the file's first and last lines with `head -c`/`tail -c` and jq.
        #expect(summary.id == "258c7280-ae70-4798-800f-63464d01a85d")
        #expect(summary.cwd == "/home/USER/projects/spotter-worktrees/spotter-gqc")
        #expect(summary.version == "2.1.39")
        #expect(summary.model == "claude-opus-4-6")
        #expect(summary.isSidechain == false)
        #expect(summary.isListable)
        #expect(summary.firstTimestamp.map { $0 < (summary.lastTimestamp ?? "") } == true)
    }

    @Test func sameSummaryWhetherHeadAndTailOverlapOrNot() throws {
        let bytes = try TestFiles.corpusFile("marot__spotter__tool_heavy.jsonl")

        let whole = SessionSummarizer.summarize(fileName: "x", fileSize: bytes.count, head: bytes, tail: bytes)
        let halves = SessionSummarizer.summarize(
            fileName: "x", fileSize: bytes.count, head: Array(bytes.prefix(30_000)), tail: Array(bytes.suffix(30_000))
        )

        #expect(whole == halves)
    }

    @Test func tornEdgesOfHeadAndTailAreSkipped() throws {
        let bytes = try TestFiles.corpusFile("daaain__claude-code-log__37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl")

        let summary = SessionSummarizer.summarize(
            fileName: "x", fileSize: bytes.count, head: Array(bytes.prefix(10_007)), tail: Array(bytes.suffix(9_999))
        )

        #expect(summary.title?.hasPrefix("Hey Claude, please have a look at the git diff") == true)
        #expect(summary.lastTimestamp != nil)
    }

    @Test func headWithOnlyATornGiantLineStillGivesCwdAndTime() throws {
        let bytes = try TestFiles.corpusFile("daaain__claude-code-log__debug_image_message.jsonl")

        let summary = SessionSummarizer.summarize(
            fileName: "x", fileSize: bytes.count, head: Array(bytes.prefix(4_096)), tail: Array(bytes.suffix(4_096))
        )

        #expect(summary.cwd != nil)
        #expect(summary.firstTimestamp != nil)
        #expect(summary.title == nil)
    }

    @Test func summaryInAnotherSessionsFileTitlesTheSessionByLeafUuid() throws {
        let owner = try TestFiles.corpusFile("chiphuyen__sniffly__d3ad4cdc-5657-435d-98fa-0035d53e383d.jsonl")
        let other = try TestFiles.corpusFile("chiphuyen__sniffly__fed8ce56-bc79-401f-a83e-af084253362f.jsonl")
        let project = SessionSummarizer.summaries(in: Array(other.prefix(65_536)))

        let summary = SessionSummarizer.summarize(
            fileName: "d3ad4cdc.jsonl", fileSize: owner.count, head: Array(owner.prefix(65_536)), tail: Array(owner.suffix(65_536)),
            summariesByLeaf: project
        )

        // fed8ce56's first line: {"type":"summary","summary":…,"leafUuid":…} pointing into d3ad4cdc (SOURCES.md).
        #expect(summary.titleSource == .summary)
        #expect(summary.title == project.values.first)
    }

    @Test func metadataOnlyFilesAreNotListable() throws {
        for name in [
            "daaain__claude-code-log__4e27c414-a885-46a0-b5c8-d58e1417377d.jsonl",
            "daaain__claude-code-log__a95fea4a-b88a-4e49-ac07-4cc323d8700c.jsonl",
            "daaain__claude-code-log__2c5941bd-b9de-41d6-9414-221d175776f7.jsonl",
        ] {
            let bytes = try TestFiles.corpusFile(name)
            let summary = SessionSummarizer.summarize(fileName: name, fileSize: bytes.count, head: bytes, tail: bytes)
            #expect(!summary.isListable, "\(name)")
        }
    }

    @Test func subagentFilesAreMarkedSidechain() throws {
        let bytes = try TestFiles.corpusFile("daaain__claude-code-log__agent-ea02459f.jsonl")

        let summary = SessionSummarizer.summarize(fileName: "agent-ea02459f.jsonl", fileSize: bytes.count, head: bytes, tail: bytes)

        #expect(summary.isSidechain)
        #expect(!summary.isListable)
    }

    @Test func summaryFromHeadAndTailOfAHundredMegabyteFileIsFast() throws {
        let bytes = try TestFiles.corpusFile("marot__spotter__258c7280-ae70-4798-800f-63464d01a85d.jsonl")
        let head = Array(bytes.prefix(65_536)), tail = Array(bytes.suffix(65_536))
        let clock = ContinuousClock()

        let elapsed = clock.measure {
            for _ in 0..<10 { _ = SessionSummarizer.summarize(fileName: "x", fileSize: 100_000_000, head: head, tail: tail) }
        }

        #expect(elapsed < .milliseconds(500), "10 summaries took \(elapsed) (debug build)")
    }
}
