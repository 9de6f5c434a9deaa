import Foundation
import RWSTestSupport
import Testing

/// A conversation Claude Code moved on with `/background` (2.1.33x): the earlier session's file
/// ends with a `continued-in` record naming the later one, which starts with a copy of the
/// conversation under its own AI title. Records shaped as 2.1.337 writes them, trimmed.
@Suite struct ContinuationCommandTests {
    static let earlier = "0392e3e0-1111-4aaa-8bbb-000000000001"
    static let later = "7c5d1f20-2222-4ccc-9ddd-000000000002"
    /// A box on the shared server holding both sessions in `-home-dev-proj`.
    let box: TestBox
    var project: String { box.claudeProjects + "/-home-dev-proj" }

    init() throws {
        box = try TestBox()
        try box.writeSession(Self.earlier, lines: Self.earlierLines)
        try box.writeSession(Self.later, lines: Self.laterLines)
    }

    static func turn(_ session: String, prompt: String, answer: String, at minute: Int, parent: String?, suffix: String) -> [String] {
        let parentField = parent.map { "\"\($0)\"" } ?? "null"
        return [
            #"{"parentUuid":\#(parentField),"isSidechain":false,"type":"user","uuid":"u\#(suffix)","sessionId":"\#(session)","#
                + #""cwd":"/home/dev/proj","permissionMode":"auto","timestamp":"2026-01-02T10:0\#(minute):00.000Z","#
                + #""version":"2.1.337","message":{"role":"user","content":"\#(prompt)"}}"#,
            #"{"parentUuid":"u\#(suffix)","isSidechain":false,"message":{"id":"m\#(suffix)","type":"message","role":"assistant","#
                + #""model":"claude-opus-5-5","content":[{"type":"text","text":"\#(answer)"}],"stop_reason":"end_turn","#
                + #""usage":{"input_tokens":900,"output_tokens":5}},"type":"assistant","uuid":"a\#(suffix)","#
                + #""sessionId":"\#(session)","cwd":"/home/dev/proj","timestamp":"2026-01-02T10:0\#(minute):05.000Z","version":"2.1.337"}"#,
            #"{"type":"api-request-route","provider":"customEndpoint","credential":"key","sessionId":"\#(session)"}"#,
        ]
    }

    static var earlierLines: [String] {
        turn(earlier, prompt: "say hi", answer: "Hello from the box.", at: 0, parent: nil, suffix: "1") + [
            #"{"type":"last-prompt","lastPrompt":"say hi","leafUuid":"a1","sessionId":"\#(earlier)"}"#,
            #"{"type":"continued-in","timestamp":"2026-01-02T10:01:00.000Z","sessionId":"\#(earlier)","#
                + #""continuedInSessionId":"\#(later)"}"#,
            #"{"type":"brand-new-record","sessionId":"\#(earlier)","whatever":{"nested":true}}"#,
        ]
    }

    static var laterLines: [String] {
        [#"{"type":"ai-title","aiTitle":"say hi","sessionId":"\#(later)"}"#]
            + turn(later, prompt: "say more", answer: "More from the box.", at: 2, parent: nil, suffix: "2")
    }

    @Test func theTwoSessionsOfABackgroundedConversationAreListedAsLinked() async throws {
        let table = await box.rws(["sessions"])
        #expect(table.status == 0, "\(table.stderr)")
        let rows = table.stdout.split(separator: "\n").map(String.init)
        #expect(rows.contains { $0.hasPrefix("7c5d1f20") && $0.hasSuffix("say hi  [continues 0392e3e0]") }, "\(table.stdout)")
        #expect(rows.contains { $0.hasPrefix("0392e3e0") && $0.hasSuffix("say hi  [continued in 7c5d1f20]") }, "\(table.stdout)")
        let json = await box.rws(["sessions", "--json"])
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]] ?? []
        let summaries = decoded.compactMap { $0["summary"] as? [String: Any] }
        let first = try #require(summaries.first { $0["id"] as? String == Self.earlier })
        #expect(first["continuedIn"] as? String == Self.later)
        #expect(first["permissionMode"] as? String == "auto")
        #expect(first["provider"] as? String == "customEndpoint")
        #expect(summaries.first { $0["id"] as? String == Self.later }?["continuedFrom"] as? String == Self.earlier)

        let local = await InProcessRWS.run(["sessions", "--local", project], home: box.localHome)
        #expect(local.stdout.contains("[continued in 7c5d1f20]") && local.stdout.contains("[continues 0392e3e0]"), "\(local.stdout)")
    }

    @Test func historyNamesTheContinuationAndChainShowsIt() async throws {
        let alone = await box.rws(["history", "0392e3e0"])
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(alone.stdout.contains("Hello from the box."))
        #expect(!alone.stdout.contains("More from the box."))
        #expect(alone.stdout.hasSuffix("— continued in session \(Self.later) (rws history \(Self.later), or --chain)\n"))

        let chain = await box.rws(["history", "0392e3e0", "--chain"])
        #expect(chain.status == 0, "\(chain.stderr)")
        let hello = try #require(chain.stdout.range(of: "Hello from the box."))
        let more = try #require(chain.stdout.range(of: "More from the box."))
        #expect(hello.upperBound <= more.lowerBound)
        #expect(chain.stdout.contains("— continued in session \(Self.later) —"))

        let json = await box.rws(["history", "0392e3e0", "--format", "json"])
        #expect(json.stdout.contains(#""permissionMode": "auto""#), "the mode of each prompt, where recorded: \(json.stdout)")
        #expect(!json.stdout.contains("continued in"), "JSON is the session alone")
        let exported = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let unknown = exported?["unknownRecords"] as? [[String: Any]]
        #expect(unknown?.map { $0["type"] as? String } == ["brand-new-record"], "kept as written: \(json.stdout)")
        #expect((unknown?.first?["whatever"] as? [String: Any])?["nested"] as? Bool == true)

        let laterOne = await box.rws(["history", "7c5d1f20"])
        #expect(laterOne.stdout.hasPrefix("— continues session \(Self.earlier) (rws history \(Self.earlier))\n"), "\(laterOne.stdout)")
    }

    @Test func anUnknownRecordTypeChangesNothingShownAndIsNamed() async throws {
        let verbose = await box.rws(["history", "0392e3e0", "-v"])
        #expect(verbose.status == 0)
        #expect(verbose.stderr.contains("record types rws does not know, kept raw: brand-new-record (1)"), "\(verbose.stderr)")
        // The same session without the unknown record renders the same.
        let quiet = await box.rws(["history", "0392e3e0"])
        try box.writeSession(Self.earlier, lines: Self.earlierLines.filter { !$0.contains("brand-new-record") })
        let without = await box.rws(["history", "0392e3e0"])
        #expect(quiet.stdout == without.stdout)

        try box.writeSession(Self.earlier, lines: Self.earlierLines)
        let census = await box.rws(["record-types"])
        #expect(census.status == 0, "\(census.stderr)")
        let lines = census.stdout.split(separator: "\n").map(String.init)
        let row = try #require(lines.first { $0.hasPrefix("brand-new-record") }, "\(census.stdout)")
        #expect(row.contains("unknown: kept raw"))
        #expect(lines.first { $0.hasPrefix("continued-in ") }?.hasSuffix("known") == true)
        #expect(lines.first { $0.hasPrefix("user ") }?.contains("2.1.337") == true)
        #expect(lines.last == "7 types in 2 session(s); 1 unknown to rws")
        let json = await box.rws(["record-types", "--json"])
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let types = decoded?["types"] as? [[String: Any]] ?? []
        #expect(types.first { $0["type"] as? String == "brand-new-record" }?["known"] as? Bool == false)
    }
}
