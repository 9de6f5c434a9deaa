import Foundation
import RWSTestSupport
import Testing

/// `rws history -v` says how it chose to move a big session's bytes, and why.
@Suite struct HistoryTransferChoiceTests {
    @Test func verboseHistorySaysTheMeasuredLinkAndTheChoice() async throws {
        let box = try SessionCommandsTests.sessionBox()
        defer { box.remove() }
        let id = "99999999-0000-4000-8000-000000000009"
        let line = { (n: Int) in
            #"{"type":"user","uuid":"u\#(n)","sessionId":"\#(id)","timestamp":"2026-01-02T10:00:00.000Z","#
                + #""message":{"role":"user","content":"line \#(n) \#(String(repeating: "text ", count: 200))"}}"#
        }
        let text = (0..<6_000).map(line).joined(separator: "\n") + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: box.claudeProjects + "/-home-dev-proj/\(id).jsonl"))
        let history = await box.rws(["history", "-v", id, "--format", "json"])
        #expect(history.status == 0, "\(history.stderr)")
        // The link's rate decides (SessionLoadCompressionTests checks it is the link's): the
        // choice said must be the one for the rate said.
        let said = try #require(
            history.stderr.firstMatch(
                of: /link measured at (too fast to time|([0-9.]+) MB\/s) \(.*\): (raw bytes|gzip -1|gzip -6) from here on/),
            "\(history.stderr)")
        let rate = said.output.2.flatMap { Double($0) } ?? .infinity
        // The rate is shown to 0.1 MB/s, so at a threshold (40 and 7 MB/s) either side's choice fits what is shown.
        let fitting = Set([rate - 0.05, rate + 0.05].map { $0 >= 40 ? "raw bytes" : $0 >= 7 ? "gzip -1" : "gzip -6" })
        #expect(fitting.contains(String(said.output.3)), "\(history.stderr)")
    }
}
