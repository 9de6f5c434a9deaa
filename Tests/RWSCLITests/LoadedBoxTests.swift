import Foundation
import Platform
import RWSTestSupport
import SSHClient
import Testing

/// The box under load: CPU hogs at twice this machine's cores (the box is this machine) while rws
/// works. No time is asserted beyond generous waits; what counts is that each command ends as on an
/// idle box, stops everything it started there, and keeps data whole.
@Suite(.serialized, .timeLimit(.minutes(3))) struct LoadedBoxTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-cli-home-\(UUID().uuidString.prefix(8))").path

    private func unique() -> Int { Int.random(in: 100_000...999_999) }

    @Test(arguments: ServerKind.allCases)
    func aTimeoutStopsATreeThatIgnoresTERMAndChecksItIsGone(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let load = try CPULoad()
        defer { load.stop() }
        let first = unique(), second = unique()
        // Ignored signals stay ignored across exec: both sleeps must be killed after the grace.
        let command = "trap '' TERM; sleep \(first) & sleep \(second)"
        let outcome = try await RWSBinary.run(["exec"] + server.rwsFlags + ["--timeout", "2s", "--", command], home: home)
        #expect(outcome.status == 124, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("timed out after 2s and was stopped"), "\(outcome.stderr)")
        #expect(LocalProcessTable.live(running: "sleep \(first)").isEmpty)
        #expect(LocalProcessTable.live(running: "sleep \(second)").isEmpty)
    }

    @Test(arguments: ServerKind.allCases)
    func aFileCopiedToTheBoxAndBackIsByteForByteWithNoTemporaryLeft(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let folder = "busy-\(UUID().uuidString.prefix(8))"
        let there = server.remoteHome + "/" + folder
        let here = FileManager.default.temporaryDirectory.appendingPathComponent("rws-busy-\(UUID().uuidString.prefix(8))").path
        for path in [there, here] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        defer { for path in [there, here] { try? FileManager.default.removeItem(atPath: path) } }
        let contents = Data(TestBytes.make(8_000_000, seed: 6))
        try contents.write(to: URL(fileURLWithPath: here + "/original.bin"))
        let load = try CPULoad()
        defer { load.stop() }
        let put = try await RWSBinary.run(["put"] + server.rwsFlags + [here + "/original.bin", "~/\(folder)/copy.bin"], home: home)
        #expect(put.status == 0 && put.stderr.isEmpty, "\(put.stderr)")
        let get = try await RWSBinary.run(["get"] + server.rwsFlags + ["~/\(folder)/copy.bin", here + "/back.bin"], home: home)
        #expect(get.status == 0 && get.stderr.isEmpty, "\(get.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: here + "/back.bin")) == contents)
        #expect(try FileManager.default.contentsOfDirectory(atPath: there) == ["copy.bin"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: here).sorted() == ["back.bin", "original.bin"])
    }

    @Test(arguments: ServerKind.allCases)
    func eachEndingSignalEndsTheFollowOnlyOnceItsLoopOnTheBoxIsGone(kind: ServerKind) async throws {
        let box = try SessionCommandsTests.sessionBox(kind)
        defer { box.remove() }
        let load = try CPULoad()
        defer { load.stop() }
        for (signal, status) in [(SIGINT, Int32(130)), (SIGTERM, 143), (SIGHUP, 129)] {
            let run = try RunningRws(box)
            let watch = RunningRws.loopWatch(box)
            guard try await watch.waitUntilRunning(within: 60) else {
                run.kill()
                Issue.record("signal \(signal): the follow loop never showed up; stderr: \(run.errors.collected)")
                return
            }
            try SystemCall.kill(run.process.processIdentifier, signal)
            let exited = await run.waitForExit(within: 30)
            let left = watch.running()
            if !left.isEmpty { try watch.signal(SIGKILL) }
            guard exited else { return run.kill() }
            #expect(run.process.terminationReason == .exit && run.process.terminationStatus == status, "signal \(signal)")
            #expect(left.isEmpty, "signal \(signal): the loop outlived rws: \(left)")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aSignalToAShellCommandStopsItsTreeOnTheBox(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let load = try CPULoad()
        defer { load.stop() }
        let first = unique(), second = unique()
        let outcome = try await RWSBinary.interrupted(
            ["shell"] + server.rwsFlags + ["--command", "echo started; sleep \(first) & sleep \(second)"],
            home: home, after: "started", signal: SIGTERM, within: .seconds(60))
        #expect(outcome.status == 143, "\(outcome.stderr)")
        #expect(LocalProcessTable.live(running: "sleep \(first)").isEmpty)
        #expect(LocalProcessTable.live(running: "sleep \(second)").isEmpty)
    }

    @Test(arguments: ServerKind.allCases)
    func aForwardCarriesEveryConnectionAndCtrlCClosesIt(kind: ServerKind) async throws {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let echo = try EchoServer()
        defer { echo.stop() }
        let server = try SharedTestServer.get(kind)
        let load = try CPULoad()
        defer { load.stop() }
        let arguments = ["forward"] + server.rwsFlags + ["0:\(echo.port)"]
        let (outcome, port) = try await ForwardCommandTests.runUntilURL(arguments, home: home) { child, local in
            for round in 0..<20 {
                let bytes = Array("round \(round)".utf8)
                #expect(try EchoServer.roundTrip(port: local, bytes) == bytes, "round \(round)")
            }
            try SystemCall.kill(child, SIGINT)
        }
        #expect(outcome.status == 130, "\(outcome.stderr)")
        #expect(echo.acceptedConnections == 20)
        let local = try #require(port)
        #expect(throws: SystemCallError.self) { _ = try EchoServer.roundTrip(port: local, [1]) }
    }

    @Test(arguments: ServerKind.allCases)
    func aCloneArrivesWholeAndLeavesNoGitRunning(kind: ServerKind) async throws {
        let box = try TestBox(kind)
        defer { box.remove() }
        let source = try CloneProgressOutputTests.repository(in: box)
        let load = try CPULoad()
        defer { load.stop() }
        let cloned = try await RWSBinary.run(["clone", source, "--name", "app"] + box.rwsFlags + ["--allow-local"], home: box.localHome)
        #expect(cloned.status == 0, "\(cloned.stderr)")
        let head = try Shell.run("/usr/bin/git", ["-C", box.root + "/source.git", "rev-parse", "HEAD"])
        #expect(try Shell.run("/usr/bin/git", ["-C", box.project, "rev-parse", "HEAD"]) == head)
        #expect(try Shell.run("/usr/bin/git", ["-C", box.project, "status", "--porcelain"]).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.workspaceRoot) == ["app"])
        #expect(LocalProcessTable.live(running: box.root + "/source.git").isEmpty)
    }

    @Test(arguments: ServerKind.allCases)
    func watchReportsATurnsEndOnceAndCtrlCEndsIt(kind: ServerKind) async throws {
        let box = try TestBox(kind)
        defer { box.remove() }
        let load = try CPULoad()
        defer { load.stop() }
        let (outcome, id) = try await AttentionCommandTests.watchUntilATurnEnds(box)
        try AttentionCommandTests.expectTheTurnsEndInferred(outcome, id: id)
        #expect(outcome.stdout.split(separator: "\n").count == 1, "\(outcome.stdout)")
    }

    @Test(arguments: ServerKind.allCases)
    func askStreamsTheWholeAnswerAndLeavesNoClaudeCodeRunning(kind: ServerKind) async throws {
        let box = try TestBox(kind, claude: [["blocks": [["type": "text", "text": "The answer is 42.", "chunks": 4]]]])
        defer { box.remove() }
        let load = try CPULoad()
        defer { load.stop() }
        let outcome = await box.rws(["ask", "app", "What is the answer?", "--permission-mode", "default"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == "The answer is 42.\n")
        let id = try #require(outcome.stderr.firstMatch(of: /session ([0-9a-f-]{36})/)?.1)
        #expect(await box.rws(["sessions", "--json"]).stdout.contains(String(id)))
        #expect(ClaudeCodeCLI.processes(in: box.project).isEmpty)
    }

    @Test(arguments: ServerKind.allCases)
    func aPersistentShellComesBackToTheSameShellAfterACut(kind: ServerKind) async throws {
        let load = try CPULoad()
        defer { load.stop() }
        try await PersistentShellCommandTests.expectADroppedLinkToReattach(on: try SharedTestServer.get(kind), home: home)
    }

    @Test(arguments: ServerKind.allCases)
    func aPersistentAskShowsTheRestOfItsTurnOnceAfterACut(kind: ServerKind) async throws {
        let load = try CPULoad()
        defer { load.stop() }
        try await AskPersistCommandTests.expectACutLinkToLeaveTheTurnRunning(kind)
    }

    @Test(arguments: ServerKind.allCases)
    func aPersistentClaudeCodeGoesOnThroughACutAndEndsWhenKilled(kind: ServerKind) async throws {
        let load = try CPULoad()
        defer { load.stop() }
        try await PersistentClaudeCommandTests.expectATurnToGoOnThroughACutLink(kind)
    }
}
