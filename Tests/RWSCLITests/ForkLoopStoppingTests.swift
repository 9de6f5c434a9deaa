import Foundation
import Platform
import RWSTestSupport
import Testing

/// A loop that forks faster than it can be killed and ignores TERM, HUP and INT, ended by each
/// way rws ends a command but its timeout (which `ExecStoppingTests` covers): Ctrl+C, SIGTERM and
/// SIGHUP to `rws exec`, SIGTERM to `rws shell --command`. Nothing of it may be left on the box
/// when rws exits. One case at a time: each fills the process table while it runs.
@Suite(.serialized, .timeLimit(.minutes(3))) struct ForkLoopStoppingTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-cli-home-\(UUID().uuidString.prefix(8))").path

    static let signals: [(ServerKind, Int32, Int32)] = ServerKind.allCases.flatMap { kind -> [(ServerKind, Int32, Int32)] in
        [(kind, SIGINT, 130), (kind, SIGTERM, 143), (kind, SIGHUP, 129)]
    }

    /// Prints `started`, then forks `sleep SECONDS` without end, every part deaf to TERM, HUP and INT.
    private static func forkLoop(_ seconds: Int) -> String {
        "echo started; trap '' TERM HUP INT; while :; do (trap '' TERM HUP INT; exec sleep \(seconds)) & done"
    }

    @Test(arguments: signals)
    func execStopsAForkLoopAtEachEndingSignal(kind: ServerKind, signal: Int32, expectedStatus: Int32) async throws {
        let server = try SharedTestServer.get(kind)
        let seconds = Int.random(in: 100_000...999_999)
        let before = LocalProcessTable.pids().count
        let outcome = try await RWSBinary.interrupted(
            ["exec"] + server.rwsFlags + ["--", Self.forkLoop(seconds)], home: home, after: "started\n", signal: signal,
            within: .seconds(20))
        #expect(outcome.status == expectedStatus, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("cancelled and stopped"), "\(outcome.stderr)")
        #expect(LocalProcessTable.live(containing: "sleep \(seconds)").isEmpty, "the loop outlived rws")
        try await Self.waitForTheZombies(before: before)
    }

    @Test(arguments: ServerKind.allCases)
    func shellCommandStopsAForkLoopAtSIGTERM(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let seconds = Int.random(in: 100_000...999_999)
        let before = LocalProcessTable.pids().count
        let outcome = try await RWSBinary.interrupted(
            ["shell"] + server.rwsFlags + ["--command", Self.forkLoop(seconds)], home: home, after: "started", signal: SIGTERM,
            within: .seconds(20))
        #expect(outcome.status == 143, "\(outcome.stderr)")
        #expect(LocalProcessTable.live(containing: "sleep \(seconds)").isEmpty, "the loop outlived rws")
        try await Self.waitForTheZombies(before: before)
    }

    /// Thousands of killed children wait as zombies for init to reap them; the next test would
    /// meet them in every look at the process table, so each case ends once they are gone.
    private static func waitForTheZombies(before: Int) async throws {
        #expect(try await Eventually.holds(within: .seconds(30)) { LocalProcessTable.pids().count < before + 200 })
    }
}
