import Foundation
import Platform

/// The fault soak's follow: one `rws history --follow` for the whole run while a writer appends
/// a numbered assistant message to the session twice a second (on the box, which is this
/// machine). Every number must be shown once, in order; Ctrl+C at the end must exit 130.
enum FaultSoakFollow {
    static let sessionID = "77777777-0000-0000-0000-00000000f001"

    static func run(_ context: FaultSoak.Context, ledger: FaultSoakLedger) async {
        do {
            let (claude, file) = try makeSession(context)
            let follow = try RWSProcess(
                context.rws, ["history"] + context.flags + ["--claude-dir", claude, sessionID, "--follow"], home: context.home)
            var written = 0
            var nextSample = 0.0
            while ContinuousClock.now < context.end - .seconds(5) {
                written += 1
                try append(written, to: file)
                // Sampled only while the link works (the line of half a second ago is shown): in a
                // reconnect the dead loop's wake-up pipe outlives its socket until the new loop is
                // adopted, a passing overlap, not growth.
                if seconds(since: context.start) >= nextSample, follow.stdoutSoFar.contains("follow-line-\(written - 1).") {
                    let sample = ProcessResources.sample(at: seconds(since: context.start), process: "\(follow.pid)")
                    ledger.update { $0.followResources.append(sample) }
                    nextSample = seconds(since: context.start) + context.options.sampleEvery
                }
                try? await Task.sleep(for: .milliseconds(500))
            }
            ledger.update { $0.followWritten = written }
            // The follow catches up after the quiet time's reconnect; then Ctrl+C.
            let deadline = ContinuousClock.now + .seconds(60)
            while !follow.stdoutSoFar.contains("follow-line-\(written)."), ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(100))
            }
            let shown = numbers(in: follow.stdoutSoFar)
            try SystemCall.kill(follow.pid, SIGINT)
            let outcome = await follow.wait(within: .seconds(30))
            ledger.update {
                $0.followShown = shown.count
                $0.followExit = outcome?.status
            }
            ledger.check("follow", shown: shown, of: written, outcome: outcome)
            let loop = await FaultSoak.leftovers(file)
            if !loop.isEmpty { ledger.fail("follow: its loop is still on the box: \(loop)") }
        } catch {
            ledger.fail("follow: \(error)")
        }
    }

    /// A session of one prompt and a tool call in a fresh Claude directory on the box.
    private static func makeSession(_ context: FaultSoak.Context) throws -> (claude: String, file: String) {
        let claude = context.server.remoteHome + "/\(context.marker)-claude"
        let project = claude + "/projects/-home-dev-proj"
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        let file = project + "/\(sessionID).jsonl"
        let lines = [
            #"{"parentUuid":null,"isSidechain":false,"type":"user","uuid":"u1","sessionId":"\#(sessionID)","cwd":"/home/dev/proj","#
                + #""timestamp":"2026-01-02T10:00:00.000Z","message":{"role":"user","content":"Count for me"}}"#
        ]
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
        return (claude, file)
    }

    private static func append(_ number: Int, to file: String) throws {
        let parent = number == 1 ? "u1" : "f\(number - 1)"
        let line =
            #"{"parentUuid":"\#(parent)","isSidechain":false,"type":"assistant","uuid":"f\#(number)","sessionId":"\#(sessionID)","#
            + #""timestamp":"2026-01-02T10:01:00.000Z","message":{"id":"fm\#(number)","role":"assistant","model":"claude-test","#
            + #""content":[{"type":"text","text":"follow-line-\#(number)."}]}}"#
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((line + "\n").utf8))
    }

    private static func numbers(in output: String) -> [Int] {
        output.components(separatedBy: "follow-line-").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
    }
}
