import Foundation
import RWSTestSupport
import SessionHistory
import Testing

@testable import RemoteWorkspace

/// A session whose last response is larger than a listing's 64 KiB tail, followed by the ~57 KB
/// prompt snapshot and small records Claude Code 2.1.33x writes after every turn: the state,
/// context figure and last time come from that response all the same, listed on the box and here.
@Suite struct LargeLastRecordTests {
    static let session = "3f0c9a52-5f2e-4d5b-9a51-6b1b2a7c1e11"

    static func lines(answerBytes: Int) -> [String] {
        let answer = String(repeating: "a long answer ", count: answerBytes / 14)
        let snapshot = String(repeating: "system prompt text ", count: 3_000)
        return [
            Records.user("Explain everything", uuid: "u1", parent: nil, session: session),
            // Claude Code writes a response's `type` after its `message`, as here.
            #"{"parentUuid":"u1","isSidechain":false,"sessionId":"\#(session)","cwd":"/home/dev/proj","#
                + #""message":{"id":"msg_1","type":"message","role":"assistant","#
                + #""model":"claude-opus-5-5","content":[{"type":"text","text":"\#(answer)"}],"stop_reason":"end_turn","#
                + #""usage":{"input_tokens":1200,"cache_creation_input_tokens":300,"cache_read_input_tokens":4500,"output_tokens":9}},"#
                + #""type":"assistant","uuid":"a1","timestamp":"2026-01-02T10:00:05.000Z"}"#,
            #"{"parentUuid":"a1","isSidechain":false,"attachment":{"type":"prompt_snapshot","systemPrompt":["\#(snapshot)"]},"#
                + #""type":"attachment","uuid":"s1","sessionId":"\#(session)","timestamp":"2026-01-02T10:00:06.000Z"}"#,
            #"{"type":"last-prompt","lastPrompt":"Explain everything","leafUuid":"s1","sessionId":"\#(session)"}"#,
            #"{"type":"atis-latch","atis":"","sessionId":"\#(session)"}"#,
            #"{"type":"api-request-route","provider":"firstParty","credential":"key","sessionId":"\#(session)"}"#,
            #"{"type":"cost-state","sessionId":"\#(session)","totalCostUSD":0.25}"#,
        ]
    }

    @Test(arguments: ScriptPlace.localAndDefault, [63_000, 200_000, 5_000_000])
    func theStateAndContextComeFromALastResponseOfAnySize(place: ScriptPlace, answerBytes: Int) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        let path = try sandbox.writeSession(Self.session, lines: Self.lines(answerBytes: answerBytes))
        let listing = try await sandbox.withSessions { try await $0.listing() }
        let remote = try #require(listing.sessions.first?.summary)
        #expect(remote.activity == .turnEnded)
        #expect(remote.contextUse == ContextUse(tokens: 6_000, window: 200_000))
        #expect(remote.lastTimestamp == "2026-01-02T10:00:06.000Z")
        #expect(remote.model == "claude-opus-5-5")
        #expect(remote.provider == "firstParty")
        #expect(remote.costUSD == 0.25)
        #expect(listing.statistics.tailsGrown >= 1, "the wide tail held no response")
        // Bounded: the tail read no more than four times the bytes it needed, never the whole
        // file's head as well.
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        #expect(listing.statistics.bytesTransferred < 4 * size + 400_000)

        let local = try LocalProject.listSessions(in: URL(fileURLWithPath: sandbox.claudeProjects + "/-home-dev-proj"))
        #expect(local.first?.summary == remote)
        #expect(try LocalSession.load(at: URL(fileURLWithPath: path)).summary.activity == .turnEnded)

        // From the cache, the same (nothing read).
        let warm = try await sandbox.withSessions { try await $0.listing() }
        #expect(warm.sessions.first?.summary == remote)
        #expect(warm.statistics.tailsGrown == 0)
    }

    @Test func aTailGrowsOnlyWhileItsCutRecordMayTellTheStateAndNeverPastItsLimit() {
        let policy = ListingWindowPolicy(tailLimit: 1 << 20)
        var summary = SessionSummary(id: "x", fileSize: 50 << 20)
        let end = Array(#"},"type":"assistant","uuid":"a"}"#.utf8) + [0x0A]
        let cutResponse = [UInt8](repeating: UInt8(ascii: "x"), count: 65_536 - end.count) + end
        #expect(policy.tailGrowth(summary, tail: cutResponse) == 65_536 + 16_384, "first a small step")
        let grown = [UInt8](repeating: 0x20, count: 16_384) + cutResponse
        #expect(policy.tailGrowth(summary, tail: grown) == 4 * grown.count, "then fourfold")
        #expect(policy.tailGrowth(summary, tail: [UInt8](repeating: 0x20, count: 1 << 20)) == nil, "the limit")
        let cutToolResult = Array(String(repeating: "x", count: 65_535).utf8) + [0x0A]
        #expect(policy.tailGrowth(summary, tail: cutToolResult) == nil, "a cut prompt or tool result: working either way")
        summary.activity = .turnEnded
        summary.contextUse = ContextUse(tokens: 1, window: nil)
        #expect(policy.tailGrowth(summary, tail: cutResponse) == nil, "the tail tells the state")
        summary.contextUse = nil
        #expect(policy.tailGrowth(summary, tail: cutResponse) == 81_920, "no response in the tail: the context figure is before it")
        let response = Array(#"{"type":"assistant","message":{"content":[]}}"#.utf8) + [0x0A]
        #expect(policy.tailGrowth(summary, tail: cutResponse + response) == nil, "a response without usage: nothing more to find")
        summary.activity = nil
        #expect(ListingWindowPolicy(first: 8_192, wide: 8_192).tailGrowth(summary, tail: cutResponse) == nil, "widening off")
        summary.isSidechain = true
        #expect(policy.tailGrowth(summary, tail: cutResponse) == nil, "subagent transcripts show no state")
    }
}
