import Foundation
import Platform
import RWSTestSupport
import Testing

/// A stop the box is too busy to run: `rws exec` ended by a signal waits for its stop only so long
/// (the grace period and 30 s), then exits 125 naming the process group that may still run and how
/// to end it, never calling it stopped.
@Suite(.timeLimit(.minutes(2))) struct StopTooSlowCommandTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-cli-home-\(UUID().uuidString.prefix(8))").path

    @Test(arguments: ServerKind.allCases)
    func aStopTheBoxDoesNotRunInTimeIsReportedByPIDWithinItsBound(kind: ServerKind) async throws {
        let server = try TestSSHServer.withSlowStops(kind, delay: .seconds(45))
        defer { server.stop() }
        let seconds = Int.random(in: 100_000...999_999)
        defer { for process in LocalProcessTable.live(running: "sleep \(seconds)") { try? SystemCall.kill(process.pid, SIGKILL) } }
        let started = ContinuousClock.now
        let outcome = try await RWSBinary.interrupted(
            ["exec"] + server.rwsFlags + ["--", "echo started; sleep \(seconds)"], home: home, after: "started\n", signal: SIGTERM,
            within: .seconds(20))
        let took = ContinuousClock.now - started
        let left = LocalProcessTable.live(running: "sleep \(seconds)")
        let leader = try #require(left.first?.session, "the stop ran after all: \(outcome.stderr)")
        #expect(outcome.status == 125, "\(outcome.stderr)")
        #expect(
            outcome.stderr.hasPrefix("rws: could not verify that the command stopped (the box did not finish the stop within 32s, ")
                && outcome.stderr.contains("; kill -- -\(leader) there ends it); it may still be running on the box: "),
            "\(outcome.stderr)")
        #expect(took < .seconds(44), "rws waited \(took) for a stop the box runs only after 45 s")
    }
}
