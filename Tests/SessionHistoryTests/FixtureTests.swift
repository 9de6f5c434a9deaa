import Testing

@testable import SessionHistory

/// Cases the real corpus lacks, on fixtures written for this module (Fixtures/*.jsonl).
@Suite struct FixtureTests {
    private func records(_ name: String) throws -> [SessionRecord] {
        let parsed = SessionParser.parse(try TestFiles.fixture(name))
        #expect(parsed.issues.isEmpty)
        return parsed.records
    }

    @Test func customTitleWinsOverAITitleLastPromptAndFirstPrompt() throws {
        let bytes = try TestFiles.fixture("titles.jsonl")

        let summary = SessionSummarizer.summarize(fileName: "s.jsonl", fileSize: bytes.count, head: bytes, tail: bytes)

        #expect(summary.title == "Auth fixes")
        #expect(summary.titleSource == .customTitle)
        #expect(summary.firstPrompt == "Fix the login bug in auth.swift")
        #expect(summary.tag == "urgent")
    }

    @Test func aiTitleIsUsedWhenThereIsNoCustomTitle() throws {
        let lines = String(decoding: try TestFiles.fixture("titles.jsonl"), as: UTF8.self)
            .split(separator: "\n").filter { !$0.contains("custom-title") }
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)

        let summary = SessionSummarizer.summarize(fileName: "s", fileSize: bytes.count, head: bytes, tail: bytes)

        #expect(summary.title == "Login bug hunt")
        #expect(summary.titleSource == .aiTitle)
    }

    @Test func titleAndModeRecordsAreTypedMetadata() throws {
        let metadata = try records("titles.jsonl").compactMap { record -> MetadataRecord? in
            if case .metadata(let item) = record.kind { return item }
            return nil
        }

        #expect(metadata.map(\.kind) == [.aiTitle, .customTitle, .lastPrompt, .tag, .permissionMode])
        #expect(metadata.map(\.value) == ["Login bug hunt", "Auth fixes", "and the tests", "urgent", "acceptEdits"])
    }

    @Test func editingAnEarlierPromptShowsTheLatestBranchOnly() throws {
        let conversation = ConversationBuilder.build(records: try records("branched.jsonl"))

        #expect(conversation.userTurns.map(\.text) == ["Write a haiku about rain", "Now one about the sea"])
        #expect(conversation.assistantTurns.map(\.text) == ["Rain on the tin roof", "Waves fold into foam"])
        #expect(conversation.otherLeafCount == 1)
        #expect(conversation.leafUuid == "a2b")
    }

    @Test func abandonedBranchesStillCountTowardUsage() throws {
        let conversation = ConversationBuilder.build(records: try records("branched.jsonl"))

        #expect(conversation.usage.responseCount == 3)
        #expect(conversation.usage.total == TokenUsage(inputTokens: 30, outputTokens: 15))
    }

    @Test func compactedSessionKeepsAMarkerAndTheEarlierHistory() throws {
        let conversation = ConversationBuilder.build(records: try records("compacted.jsonl"))

        guard conversation.entries.count == 6 else {
            Issue.record("entries: \(conversation.entries)")
            return
        }
        guard case .compaction(let marker) = conversation.entries[2] else {
            Issue.record("no marker")
            return
        }
        #expect(marker.trigger == "manual")
        #expect(marker.preTokens == 150_000)
        #expect(conversation.userTurns.map(\.kind) == [.prompt, .compactSummary, .prompt])
        #expect(conversation.assistantTurns.first?.toolResults["toolu_1"]?.result.text == "line 1\nline 2")
    }

    @Test func compactedSessionCanStartAtTheCompactionLikeClaudeCodesResume() throws {
        let options = ConversationOptions(includePreCompactionHistory: false)

        let conversation = ConversationBuilder.build(records: try records("compacted.jsonl"), options: options)

        guard case .compaction = conversation.entries.first else {
            Issue.record("should start at the marker")
            return
        }
        #expect(conversation.userTurns.map(\.kind) == [.compactSummary, .prompt])
    }

    @Test func compactSummaryIsNotTheFirstPrompt() throws {
        let bytes = try TestFiles.fixture("compacted.jsonl")
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").filter { !$0.contains("Refactor the parser") }
        let withoutFirst = Array((lines.joined(separator: "\n") + "\n").utf8)

        let summary = SessionSummarizer.summarize(fileName: "s", fileSize: withoutFirst.count, head: withoutFirst, tail: withoutFirst)

        #expect(summary.title == "Continue with the tests")
    }

    @Test func windowsPathsInCwdAreKeptVerbatim() throws {
        let bytes = try TestFiles.fixture("windows-and-future.jsonl")

        let summary = SessionSummarizer.summarize(fileName: "s", fileSize: bytes.count, head: bytes, tail: bytes)

        #expect(summary.cwd == #"C:\Users\dev\my project"#)
        #expect(ProjectFolderName.encode(summary.cwd ?? "") == "C--Users-dev-my-project")
    }

    @Test func unknownRecordTypesAreKeptRaw() throws {
        let future = try records("windows-and-future.jsonl").last

        #expect(future?.type == "hologram-state")
        #expect(future?.kind == .unknown)
        #expect(future?.raw.value?["beam"]?["intensity"] == .number(3))
    }

    @Test func redactedThinkingDocumentsAndUnknownBlocksAreTyped() throws {
        let records = try records("windows-and-future.jsonl")

        guard case .document(let pdf) = records[0].user?.content.last else {
            Issue.record("no document")
            return
        }
        #expect(pdf.mediaType == "application/pdf")
        guard case .redactedThinking(let redacted) = records[1].assistant?.content.first else {
            Issue.record("no redacted thinking")
            return
        }
        #expect(redacted.data?.value?.stringValue == "EuYBCkQYAiJA")
        guard case .unknown(let unknown) = records[4].assistant?.content.first else {
            Issue.record("no unknown block")
            return
        }
        #expect(unknown.type == "server_tool_use")
        #expect(unknown.raw.value?["name"]?.stringValue == "web_search")
    }

    @Test func imagesInsideToolResultsAreAttachedToTheirCall() throws {
        let conversation = ConversationBuilder.build(records: try records("windows-and-future.jsonl"))

        let outcome = conversation.assistantTurns.first?.toolResults["toolu_img"]
        guard case .image(let image) = outcome?.result.content.first else {
            Issue.record("no image")
            return
        }
        #expect(image.mediaType == "image/png")
        #expect(image.approximateByteCount > 0)
        #expect(conversation.assistantTurns.count == 2)
    }
}
