import Foundation
import Platform
import RWSTestSupport
import SSHClient
import Testing

/// SIGINT, SIGTERM and SIGHUP end every command that runs something on the box alike: the remote
/// processes are stopped and checked gone, then rws exits 130, 143 or 129 — on both servers.
@Suite struct SignalStoppingTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-cli-home-\(UUID().uuidString.prefix(8))").path

    /// Each ending signal with the status it gives, against each server.
    static let cases: [(ServerKind, Int32, Int32)] = ServerKind.allCases.flatMap { kind -> [(ServerKind, Int32, Int32)] in
        [(kind, SIGINT, 130), (kind, SIGTERM, 143), (kind, SIGHUP, 129)]
    }

    private func unique() -> Int { Int.random(in: 100_000...999_999) }

    /// Live processes on the box (the servers run on this machine) whose command line is `words`
    /// (not rws itself, whose command line ends with them).
    private func running(_ words: String) -> [String] {
        LocalProcessTable.live(running: words).map(\.description)
    }

    @Test(arguments: cases)
    func execStopsTheRemoteTreeAndExits128PlusTheSignal(kind: ServerKind, signal: Int32, status: Int32) async throws {
        let server = try SharedTestServer.get(kind)
        let first = unique(), second = unique()
        let outcome = try await RWSBinary.interrupted(
            ["exec"] + server.rwsFlags + ["--", "echo started; sleep \(first) & sleep \(second)"],
            home: home, after: "started\n", signal: signal)
        #expect(outcome.status == status, "\(outcome.stderr)")
        #expect(outcome.killedBy == nil, "rws must stop the box's processes and exit, not die of the signal")
        #expect(outcome.stderr.contains("cancelled and stopped"))
        #expect(running("sleep \(first)") == [])
        #expect(running("sleep \(second)") == [])
    }

    @Test(arguments: cases)
    func shellCommandWithoutATerminalStopsTheRemoteTreeAndExits128PlusTheSignal(
        kind: ServerKind, signal: Int32, status: Int32
    ) async throws {
        let server = try SharedTestServer.get(kind)
        let first = unique(), second = unique()
        let outcome = try await RWSBinary.interrupted(
            ["shell"] + server.rwsFlags + ["--command", "echo started; sleep \(first) & sleep \(second)"],
            home: home, after: "started\n", signal: signal)
        #expect(outcome.status == status, "\(outcome.stderr)")
        #expect(outcome.killedBy == nil, "rws must stop the box's processes and exit, not die of the signal")
        #expect(running("sleep \(first)") == [])
        #expect(running("sleep \(second)") == [])
    }

    /// A clone whose git waits on a server that never answers (a black-holed proxy): the signal
    /// stops git and its ssh on the box and removes the half-made project.
    @Test(arguments: cases)
    func cloneStopsGitOnTheBoxLeavesNoPartialProjectAndExits128PlusTheSignal(
        kind: ServerKind, signal: Int32, status: Int32
    ) async throws {
        let box = try TestBox(kind)
        defer { box.remove() }
        let (root, flags) = (box.workspaceRoot, box.rwsFlags)
        let silent = try FaultProxy(targetPort: box.server.port)
        defer { silent.stop() }
        silent.setBlackHole(true)
        let repository = "never-\(unique()).git"
        let outcome = try await RWSBinary.run(
            ["clone", "ssh://git@127.0.0.1:\(silent.port)/\(repository)", "--name", "stuck"] + flags, home: home,
            until: { _ in silent.acceptedConnections > 0 }, within: .seconds(20)
        ) { rws in try SystemCall.kill(rws, signal) }
        #expect(silent.acceptedConnections > 0, "git's ssh reached the silent server before the signal: \(outcome.stderr)")
        #expect(outcome.status == status, "\(outcome.stderr)")
        #expect(outcome.killedBy == nil, "rws must stop the box's processes and exit, not die of the signal")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        #expect(left.isEmpty, "no partial project: \(left)")
        let running = LocalProcessTable.live(containing: repository)
        #expect(running.isEmpty, "git and its ssh are gone from the box: \(running)")
    }

    @Test(arguments: ServerKind.allCases)
    func closingTheTerminalOfExecStopsTheRemoteTree(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let seconds = unique()
        let tmux = try Tmux.start(home: home)
        defer { tmux.stop() }
        try await tmux.waitForLastLine(Tmux.localPrompt)
        let command = "echo ready-$((6 * 7)); sleep \(seconds)"
        try tmux.type(try ShellQuoting.commandLine([RWSBinary.path, "exec"] + server.rwsFlags + ["--", command]))
        try await tmux.wait(for: "ready-42", within: .seconds(20))
        // The echo comes before the sleep starts.
        try #require(try await Eventually.holds { running("sleep \(seconds)").count == 1 })
        tmux.stop()  // the terminal closes: its session leader and foreground job get SIGHUP
        try await Eventually.holds(within: .seconds(15)) { running("sleep \(seconds)").isEmpty }
        #expect(running("sleep \(seconds)") == [])
    }

    @Test(arguments: cases)
    func shellCommandWithATerminalStopsTheRemoteTreeAndExits128PlusTheSignal(
        kind: ServerKind, signal: Int32, status: Int32
    ) async throws {
        let server = try SharedTestServer.get(kind)
        let seconds = unique()
        let tmux = try Tmux.start(home: home)
        defer { tmux.stop() }
        try await tmux.waitForLastLine(Tmux.localPrompt)
        let command = "echo ready-$((6 * 7)); sleep \(seconds)"
        try tmux.type(
            try ShellQuoting.commandLine([RWSBinary.path, "shell"] + server.rwsFlags + ["--command", command]) + "; echo rws-exit=$?")
        try await tmux.wait(for: "ready-42", within: .seconds(20))
        try #require(try await Eventually.holds { running("sleep \(seconds)").count == 1 })
        let rws = LocalProcessTable.live(containing: RWSBinary.path + " shell").filter { $0.arguments.contains("sleep \(seconds)") }
            .map(\.pid)
        try #require(rws.count == 1)
        try SystemCall.kill(rws[0], signal)
        try await tmux.wait(for: "rws-exit=\(status)", within: .seconds(15))
        #expect(running("sleep \(seconds)") == [])
    }
}
