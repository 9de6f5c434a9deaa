import Foundation
import RWSTestSupport
import Testing

@testable import SessionHistory

/// What a listing says a session is doing: the tail's last transcript record, the file's age.
@Suite struct SessionStateTests {
    static let session = "5e55a0e1-0000-4000-8000-0000000000aa"

    static func records(_ lines: [String]) -> [SessionRecord] {
        SessionParser.parse(Array((lines.joined(separator: "\n") + "\n").utf8)).records
    }

    static func assistant(_ content: String, stop: String? = nil, model: String = "claude-opus-4-6", extra: String = "") -> String {
        let stopField = stop.map { #","stop_reason":"\#($0)""# } ?? ""
        return #"{"type":"assistant","uuid":"a","sessionId":"\#(session)"\#(extra),"message":{"id":"m1","role":"assistant","#
            + #""model":"\#(model)","content":[\#(content)]\#(stopField),"usage":{"input_tokens":10,"#
            + #""cache_creation_input_tokens":2000,"cache_read_input_tokens":80000,"output_tokens":50}}}"#
    }

    static let prompt = #"{"type":"user","uuid":"u","sessionId":"\#(session)","message":{"role":"user","content":"fix it"}}"#
    static let toolUse = #"{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"make"}}"#
    static let text = #"{"type":"text","text":"Done."}"#
    static let toolResult =
        #"{"type":"user","uuid":"r","sessionId":"\#(session)","message":{"role":"user","#
        + #""content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}"#
    static let progress = #"{"type":"progress","uuid":"p","data":{"type":"bash_progress","output":"…"}}"#
    static let title = #"{"type":"custom-title","customTitle":"x","sessionId":"\#(session)"}"#

    @Test func theLastTranscriptRecordTellsTheActivityPassingOverBookkeeping() {
        #expect(SessionActivity.of(Self.records([Self.prompt])) == .working)
        #expect(
            SessionActivity.of(
                Self.records([
                    Self.prompt, Self.assistant(Self.toolUse, stop: "tool_use"), Self.progress,
                    Self.title,
                ])) == .toolPending)
        #expect(SessionActivity.of(Self.records([Self.assistant(Self.toolUse), Self.toolResult])) == .working)
        #expect(SessionActivity.of(Self.records([Self.prompt, Self.assistant(Self.text, stop: "end_turn"), Self.title])) == .turnEnded)
        // 1.0.x writes a null stop_reason on every chunk: a final text still ends the turn.
        #expect(SessionActivity.of(Self.records([Self.assistant(Self.text)])) == .turnEnded)
        #expect(SessionActivity.of(Self.records([Self.assistant(#"{"type":"thinking","thinking":"hm"}"#)])) == .working)
        let interrupted = #"{"type":"user","uuid":"i","message":{"role":"user","content":"[Request interrupted by user]"}}"#
        #expect(SessionActivity.of(Self.records([Self.assistant(Self.toolUse), interrupted])) == .turnEnded)
        let commandOutput =
            #"{"type":"user","uuid":"c","message":{"role":"user","content":"<local-command-stdout>See "# + #"ya!</local-command-stdout>"}}"#
        #expect(SessionActivity.of(Self.records([commandOutput])) == .turnEnded)
        let meta = #"{"type":"user","uuid":"m","isMeta":true,"message":{"role":"user","content":"Caveat: …"}}"#
        #expect(SessionActivity.of(Self.records([Self.assistant(Self.toolUse), meta])) == .toolPending)
        let apiError = Self.assistant(
            #"{"type":"text","text":"API Error: 529 overloaded"}"#, model: "<synthetic>",
            extra: #","isApiErrorMessage":true"#)
        #expect(SessionActivity.of(Self.records([Self.prompt, apiError])) == .failed)
        let retry = #"{"type":"system","subtype":"api_error","uuid":"s","retryAttempt":1,"maxRetries":10}"#
        #expect(SessionActivity.of(Self.records([Self.prompt, retry])) == .retrying)
        let turnDuration = #"{"type":"system","subtype":"turn_duration","uuid":"d","durationMs":1200,"messageCount":4}"#
        #expect(SessionActivity.of(Self.records([Self.assistant(Self.toolUse), Self.toolResult, turnDuration])) == .turnEnded)
        let sidechain = #"{"type":"user","uuid":"s","isSidechain":true,"message":{"role":"user","content":"agent prompt"}}"#
        #expect(SessionActivity.of(Self.records([Self.assistant(Self.text, stop: "end_turn"), sidechain])) == .turnEnded)
        #expect(SessionActivity.of(Self.records([Self.title, Self.progress])) == nil)
    }

    @Test(arguments: [
        // activity, age in seconds, state
        (SessionActivity.working, 5, SessionState.running), (.working, 61, .ended),
        (.toolPending, 5, .running), (.toolPending, 61, .waitingForPermission), (.toolPending, 3_601, .ended),
        (.turnEnded, 5, .waitingForInput), (.turnEnded, 3_600, .waitingForInput), (.turnEnded, 3_601, .ended),
        (.retrying, 60, .running), (.retrying, 61, .endedWithError),
        (.failed, 0, .endedWithError), (.failed, 100_000, .endedWithError),
    ])
    func theStateFollowsTheActivityAndTheFilesAge(activity: SessionActivity, age: Int, expected: SessionState) {
        #expect(SessionStateRule().state(activity: activity, modificationTime: 1_000_000, now: 1_000_000 + age) == expected)
    }

    @Test func withoutATranscriptRecordARecentlyWrittenFileIsRunningAndAnOldOneEnded() {
        #expect(SessionStateRule().state(activity: nil, modificationTime: 100, now: 130) == .running)
        #expect(SessionStateRule().state(activity: nil, modificationTime: 100, now: 1_000) == .ended)
    }

    @Test func contextUseIsTheLastResponsesPromptAndTheWindowOfAClaudeModel() {
        let use = ContextUse.last(in: Self.records([Self.prompt, Self.assistant(Self.text)]))
        #expect(use == ContextUse(tokens: 82_010, window: 200_000))
        let apiError = Self.assistant(Self.text, model: "<synthetic>", extra: #","isApiErrorMessage":true"#)
        #expect(ContextUse.last(in: Self.records([Self.assistant(Self.text), apiError]))?.tokens == 82_010)
        let big = Self.assistant(Self.text).replacingOccurrences(of: "80000", with: "300000")
        #expect(ContextUse.last(in: Self.records([big])) == ContextUse(tokens: 302_010, window: 1_000_000))
        let other = Self.assistant(Self.text, model: "gpt-5")
        #expect(ContextUse.last(in: Self.records([other])) == ContextUse(tokens: 82_010, window: nil))
        #expect(ContextUse.last(in: Self.records([Self.prompt])) == nil)
    }

    @Test func corpusSessionsReadAsTheirLastRecordsSay() throws {
        // Last records checked with jq: a stop_hook_summary, an interruption, a pending Bash call.
        let cases: [(String, SessionActivity, Int)] = [
            ("marot__spotter__258c7280-ae70-4798-800f-63464d01a85d.jsonl", .turnEnded, 77_334),
            ("marot__spotter__tool_heavy.jsonl", .turnEnded, 27_666),
            ("chiphuyen__sniffly__d3ad4cdc-5657-435d-98fa-0035d53e383d.jsonl", .toolPending, 105_848),
        ]
        for (name, activity, tokens) in cases {
            let bytes = try TestFiles.corpusFile(name)
            let summary = SessionSummarizer.summarize(
                fileName: name, fileSize: bytes.count, head: Array(bytes.prefix(65_536)),
                tail: Array(bytes.suffix(65_536)))
            #expect(summary.activity == activity, "\(name)")
            #expect(summary.contextUse?.tokens == tokens, "\(name)")
        }
    }

    @Test func subagentCountLeavesOutCompactionAgentsAndSidecars() {
        #expect(
            SessionSummary.subagentCount(fileNames: [
                "agent-a1.jsonl", "agent-a1.meta.json", "agent-acompact-0f0f0f.jsonl",
                "agent-ea02459f.jsonl",
            ]) == 2)
    }
}

/// The message count a listing shows: lines holding a user or assistant record type.
@Suite struct MessageLinesTests {
    @Test func countsLinesHoldingAUserOrAssistantTypeOnceEachAsGrepDoes() {
        let lines = [
            #"{"type":"user","message":{"role":"user","content":"a"}}"#,
            #"{"type":"assistant","message":{"content":[{"type":"text","text":"quoting \"type\":\"user\" is not a record"}]}}"#,
            #"{"type":"progress","data":{"text":"escaped: \"type\":\"assistant\""}}"#,
            #"{"type":"custom-title","customTitle":"x"}"#,
            "",
            #"{"type":"user"}"#,
        ]
        #expect(MessageLines.count(in: Array(lines.joined(separator: "\n").utf8)) == 3)
        #expect(MessageLines.count(in: []) == 0)
    }

    @Test func whitespaceAroundTheColonCountsAsTheRemoteGrepCountsIt() throws {
        let lines = [
            #"{"type": "user","message":{"content":"a"}}"#,
            "{\"type\"\t:\t\"assistant\",\"message\":{}}",
            "{ \"type\" :  \"user\" }\r",
            #"{"type": "progress","data":{"text":"escaped: \"type\": \"assistant\""}}"#,
            #"{"type": "custom-title","customTitle":"x"}"#,
            #"{"type":"usery"}"#,
        ]
        let bytes = Array(lines.joined(separator: "\n").utf8)
        #expect(MessageLines.count(in: bytes) == 3)
        #expect(TitleLines.present(in: bytes))
        #expect(!TitleLines.present(in: Array(lines[0].utf8)))
        // The box counts with `grep -c -E` and the same rule.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rws-lines-\(UUID().uuidString).jsonl")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let grep = try Spawn.capture(
            "/bin/sh", ["-c", "LC_ALL=C grep -c -E -e \"$1\" \"$2\"", "sh", MessageLines.extendedRegex, file.path], environment: nil)
        #expect(grep.stdout == "3\n")
    }

    @Test func agreesWithGrepOnACorpusSession() throws {
        // `LC_ALL=C grep -c -F -e '"type":"user"' -e '"type":"assistant"'` on these files.
        #expect(
            MessageLines.count(in: try TestFiles.corpusFile("daaain__claude-code-log__ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl")) == 107)
        #expect(MessageLines.count(in: try TestFiles.corpusFile("marot__spotter__258c7280-ae70-4798-800f-63464d01a85d.jsonl")) == 496)
    }
}
