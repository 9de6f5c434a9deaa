import Testing

@testable import SessionHistory

@Suite struct ExportTests {
    private func conversation(_ fixture: String) throws -> Conversation {
        ConversationBuilder.build(records: SessionParser.parse(try TestFiles.fixture(fixture)).records)
    }

    @Test func plainTextShowsRoleTimeAndOneLinePerToolCall() throws {
        let text = try conversation("compacted.jsonl").plainText()

        #expect(text.contains("[2026-01-02 10:00:00] You\n  Refactor the parser"))
        #expect(text.contains("Claude (claude-opus-4-7)"))
        #expect(text.contains("  ▸ Read(/home/dev/proj/parser.swift) → 2 lines\n"))
        #expect(text.contains("── conversation compacted (manual, 150000 tokens before) ──"))
    }

    @Test func plainTextFoldsLongToolOutput() throws {
        var records = SessionParser.parse(try TestFiles.fixture("compacted.jsonl")).records
        let long = (1...50).map { "row \($0)" }.joined(separator: "\n")
        records[2].kind = .user(
            UserRecord(content: [.toolResult(ToolResultBlock(toolUseId: "toolu_1", content: [.text(long)], isError: false))]))

        let text = ConversationBuilder.build(records: records).plainText(options: RenderOptions(toolResultLineLimit: 3))

        #expect(text.contains("    │ row 3\n    … 47 more lines"))
        #expect(!text.contains("row 4\n"))
    }

    @Test func headingsInsideMessagesSitBelowTheExportsOwnHeadings() {
        let prompt = #"# Plan\n## Steps\n```sh\n# a comment, not a heading\n```\n#hashtag and ###### deep"#
        let bytes = Array(
            [
                #"{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"\#(prompt)"}}"#,
                ##"{"type":"assistant","uuid":"a1","parentUuid":"u1","##
                    + ##""message":{"id":"m1","content":[{"type":"text","text":"# Answer"}]}}"##,
            ].joined(separator: "\n").utf8)

        let markdown = ConversationBuilder.build(records: SessionParser.parse(bytes).records).markdown(options: RenderOptions(title: "T"))

        #expect(
            markdown.contains("### Plan\n#### Steps\n```sh\n# a comment, not a heading\n```\n#hashtag and ###### deep\n"), "\(markdown)")
        #expect(markdown.contains("\n### Answer\n"), "\(markdown)")
        let lines = markdown.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("# ") } == ["# T", "# a comment, not a heading"])  // the second inside its fence
        #expect(lines.filter { $0.hasPrefix("## ") }.map { $0.prefix(9) } == ["## You", "## Claude"].map { $0.prefix(9) })
    }

    @Test func aFenceIsLongerThanTheLongestRunOfBackticksInsideIt() {
        let output = "before ```` inside ``` and ` after"
        let bytes = Array(
            [
                ##"{"type":"assistant","uuid":"a1","parentUuid":null,"message":{"id":"m1","content":"##
                    + ##"[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"cat `x`"}}]}}"##,
                ##"{"type":"user","uuid":"u1","parentUuid":"a1","message":{"role":"user","content":"##
                    + ##"[{"type":"tool_result","tool_use_id":"t1","content":"\##(output)"}]}}"##,
            ].joined(separator: "\n").utf8)

        let markdown = ConversationBuilder.build(records: SessionParser.parse(bytes).records).markdown()

        #expect(markdown.contains("\n`````\n" + output + "\n`````\n"), "\(markdown)")
        #expect(markdown.contains("**Tool call:** `Bash(cat 'x')`"), "\(markdown)")
    }

    @Test func jsonStringsEscapeQuotesBackslashesAndEveryControlACopyWouldObey() {
        #expect(JSONWriter.quoted("a\"b\\c\n\t\u{1}\u{7F}\u{85}\u{9F}é🚀") == #""a\"b\\c\n\t\u0001\u007f\u0085\u009fé🚀""#)
        #expect(JSONWriter.quoted("") == #""""#)
    }

    @Test func markdownHasPromptsAnswersToolInputsAndMarkers() throws {
        let markdown = try conversation("compacted.jsonl").markdown(options: RenderOptions(title: "Parser work"))

        #expect(markdown.hasPrefix("# Parser work\n"))
        #expect(markdown.contains("## You · 2026-01-02 10:00:00\n\nRefactor the parser"))
        #expect(markdown.contains("**Tool call:** `Read(/home/dev/proj/parser.swift)`"))
        #expect(markdown.contains("\"file_path\": \"/home/dev/proj/parser.swift\""))
        #expect(markdown.contains("**Result:** 2 lines"))
        #expect(markdown.contains("> **conversation compacted (manual, 150000 tokens before)**"))
    }

    @Test func markdownLeavesThinkingOutUnlessAsked() throws {
        let records = SessionParser.parse(try TestFiles.corpusFile("marot__spotter__short.jsonl")).records
        let conversation = ConversationBuilder.build(records: records)

        #expect(!conversation.markdown().contains("<summary>Thinking</summary>"))
        #expect(conversation.markdown(options: RenderOptions(includeThinking: true)).contains("<summary>Thinking</summary>"))
    }

    @Test func imagesBecomePlaceholders() throws {
        let records = SessionParser.parse(try TestFiles.corpusFile("daaain__claude-code-log__debug_image_message.jsonl")).records

        let markdown = ConversationBuilder.build(records: records).markdown()

        #expect(markdown.contains("_[image (image/png, "))
        #expect(markdown.utf8.count < 10_000)
    }

    @Test func jsonExportParsesAndCarriesResultsOnTheirCalls() throws {
        let json = try conversation("windows-and-future.jsonl").json()

        let value = try JSONValue(parsing: json)
        let entries = value["entries"]?.arrayValue ?? []
        #expect(entries.map { $0["type"]?.stringValue } == ["user", "assistant", "assistant"])
        let call = entries[1]["content"]?.arrayValue?.first { $0["type"]?.stringValue == "tool_use" }
        #expect(call?["result"]?["content"]?.arrayValue?.first?["type"]?.stringValue == "image")
        #expect(call?["result"]?["content"]?.arrayValue?.first?["data"] == nil)
        #expect(value["usage"]?["responses"]?.intValue == 2)
    }

    @Test func everyCorpusFileRendersInEveryFormat() throws {
        for name in try TestFiles.corpusNames() {
            let conversation = ConversationBuilder.build(records: SessionParser.parse(try TestFiles.corpusFile(name)).records)
            #expect(throws: Never.self) { try JSONValue(parsing: conversation.json()) }
            #expect(conversation.messageCount == 0 || !conversation.plainText().isEmpty, "\(name)")
            #expect(conversation.markdown().hasPrefix("# "), "\(name)")
        }
    }
}
