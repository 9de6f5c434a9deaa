import Foundation
import Platform
import RWSTestSupport
import Testing

/// `rws exec` stops everything of the remote command on --timeout and Ctrl+C, on both servers,
/// and exits 125 with the survivors' PIDs when it cannot.
@Suite struct ExecStoppingTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-cli-home-\(UUID().uuidString.prefix(8))").path

    private func unique() -> Int { Int.random(in: 100_000...999_999) }

    /// Live processes whose command line holds `marker` (the servers run on this machine).
    private func running(_ marker: String) -> [String] {
        LocalProcessTable.live(containing: marker).map(\.description)
    }

    @Test(arguments: ServerKind.allCases)
    func aTimeoutExits124AndLeavesNoProcess(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let first = unique(), second = unique()
        let outcome = try await RWSBinary.run(
            ["exec"] + server.rwsFlags + ["--timeout", "2s", "--", "sleep \(first) & sleep \(second)"], home: home)
        #expect(outcome.status == 124)
        #expect(outcome.stderr.contains("timed out after 2s and was stopped"))
        #expect(running("sleep \(first)") == [])
        #expect(running("sleep \(second)") == [])
    }

    @Test(arguments: ServerKind.allCases)
    func ctrlCExits130AndLeavesNoProcess(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let first = unique(), second = unique()
        let outcome = try await RWSBinary.interrupted(
            ["exec"] + server.rwsFlags + ["--", "echo started; sleep \(first) & sleep \(second)"],
            home: home, after: "started\n")
        #expect(outcome.status == 130)
        #expect(outcome.stderr.contains("cancelled and stopped"))
        #expect(running("sleep \(first)") == [])
        #expect(running("sleep \(second)") == [])
    }

    @Test(arguments: ServerKind.allCases)
    func aStopThatLeavesAProcessExits125AndNamesIt(kind: ServerKind) async throws {
        let server = try TestSSHServer.withoutKillCapability(kind)
        defer { server.stop() }
        let seconds = unique()
        let outcome = try await RWSBinary.run(
            ["exec"] + server.rwsFlags
                + ["--timeout", "1s", "--", TestSSHServer.commandLeavingAnUnkillableChild(seconds)], home: home)
        let left = LocalProcessTable.live(running: "sleep \(seconds)").map(\.pid)
        #expect(left.count == 1)
        #expect(outcome.status == 125)
        #expect(outcome.stderr.contains("could not stop: PIDs \(left.map(String.init).joined(separator: " ")) still running"))
        for pid in left { #expect(outcome.stderr.contains("\n  \(pid) sleep \(seconds)")) }
        for pid in left { try SystemCall.kill(pid, SIGKILL) }
    }

    @Test(arguments: ServerKind.allCases)
    func aLoopThatForksFasterThanItIsKilledAndIgnoresTermIsStoppedAndChecked(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let seconds = unique()
        let before = LocalProcessTable.pids().count
        let loop = "trap '' TERM HUP; while :; do (trap '' TERM HUP; exec sleep \(seconds)) & done"
        let outcome = try await RWSBinary.run(["exec"] + server.rwsFlags + ["--timeout", "2s", "--", loop], home: home)
        #expect(outcome.status == 124, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("timed out after 2s and was stopped"))
        #expect(!outcome.stderr.contains("could not be checked"))
        #expect(running("sleep \(seconds)") == [])
        // Thousands of killed children wait as zombies for init to reap them: a test after this
        // one would meet them in every look at the process table (its first stop took 0.3-1.2 s
        // instead of 0.05 s), so this one ends once they are gone.
        #expect(try await Eventually.holds(within: .seconds(30)) { LocalProcessTable.pids().count < before + 200 })
    }
}
