import Foundation
import RWSTestSupport
import Testing

/// `rws history --follow` goes on from the history it showed: a tool result written after the
/// load completes the call shown last, not a turn of its own.
@Suite(.timeLimit(.minutes(1))) struct HistoryFollowContinuationTests {
    static let id = "77777777-0000-0000-0000-0000000000c1"

    @Test(arguments: ServerKind.allCases)
    func aResultOfTheLastCallShownCompletesItAndAddsNoTurn(kind: ServerKind) async throws {
        let box = try TestBox(kind)
        defer { box.remove() }
        let envelope = #""isSidechain":false,"sessionId":"\#(Self.id)","cwd":"/home/dev/proj""#
        let path = try box.writeSession(
            Self.id,
            lines: [
                #"{"parentUuid":null,\#(envelope),"type":"user","uuid":"u1","timestamp":"2026-01-02T10:00:00.000Z","#
                    + #""message":{"role":"user","content":"List the files"}}"#,
                #"{"parentUuid":"u1",\#(envelope),"type":"assistant","uuid":"a1","timestamp":"2026-01-02T10:00:05.000Z","#
                    + #""message":{"id":"m1","role":"assistant","model":"claude-test","#
                    + #""content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}"#,
            ])
        let run = try RunningRws(
            ["history"] + box.server.rwsFlags + ["--claude-dir", box.claudeDirectory, "77777777-0000", "--follow"],
            home: box.localHome)
        defer { run.kill() }
        #expect(await run.output.waitFor("▸ Bash(ls)", seconds: 20), "\(run.errors.collected)")

        let more = [
            #"{"parentUuid":"a1",\#(envelope),"type":"user","uuid":"r1","timestamp":"2026-01-02T10:00:06.000Z","#
                + #""message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a.txt"}]}}"#,
            #"{"parentUuid":"r1",\#(envelope),"type":"assistant","uuid":"a2","timestamp":"2026-01-02T10:00:07.000Z","#
                + #""message":{"id":"m2","role":"assistant","model":"claude-test","content":[{"type":"text","text":"One file."}]}}"#,
        ]
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(more.map { $0 + "\n" }.joined().utf8))
        try handle.close()
        #expect(await run.output.waitFor("One file.", seconds: 20), "\(run.errors.collected)")
        run.process.interrupt()
        #expect(await run.waitForExit(within: 15))

        let all = run.output.collected
        func count(_ text: String) -> Int { all.components(separatedBy: text).count - 1 }
        // The loaded prompt is the only "You"; the call's line is shown again with its result; then the answer.
        #expect(count("You") == 1 && count("▸ Bash(ls) → 1 line") == 1 && count("One file.") == 1, "\(all)")
        #expect(run.process.terminationStatus == 130)
    }
}
