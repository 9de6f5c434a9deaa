import Foundation
import Platform
import RWSTestSupport
import SSHClient
import Testing

/// `rws history --follow` ends on a signal only after its polling loop on the box is gone.
@Suite(.serialized) struct HistoryFollowSignalTests {
    /// 50 tries per case under `RWS_SOAK=full` (scripts/soak-tests), 10 in the suite.
    static let tries = SoakLength.count(full: 50, sample: 10)

    /// Ctrl+C (130), SIGTERM (143) and SIGHUP (129), against each server.
    static let cases: [(ServerKind, Int32, Int32)] = ServerKind.allCases.flatMap { kind -> [(ServerKind, Int32, Int32)] in
        [(kind, SIGINT, 130), (kind, SIGTERM, 143), (kind, SIGHUP, 129)]
    }

    @Test(arguments: cases)
    func aSignalStopsTheRemoteLoopBeforeRwsExitsEveryTime(kind: ServerKind, signal: Int32, expectedStatus: Int32) async throws {
        let box = try SessionCommandsTests.sessionBox(kind)
        defer { box.remove() }
        var exitTimes: [Duration] = []
        for attempt in 1...Self.tries {
            let run = try RunningRws(box)
            let watch = RunningRws.loopWatch(box)
            let started = try await watch.waitUntilRunning(within: 30)
            #expect(started, "try \(attempt): the follow loop never showed up; stderr: \(run.errors.collected)")
            guard started else {
                run.kill()
                return
            }
            let sent = ContinuousClock.now
            try SystemCall.kill(run.process.processIdentifier, signal)
            let exited = await run.waitForExit(within: 10)
            let exitTime = ContinuousClock.now - sent
            // Checked once, at exit: rws must not exit before the stop was carried out.
            let leftAtExit = watch.running()
            #expect(exited, "try \(attempt): rws still runs 10 s after signal \(signal)")
            guard exited else {
                run.kill()
                return
            }
            #expect(
                run.process.terminationReason == .exit && run.process.terminationStatus == expectedStatus,
                "try \(attempt): ended with \(run.process.terminationReason == .exit ? "exit" : "signal") \(run.process.terminationStatus)")
            #expect(leftAtExit.isEmpty, "try \(attempt): the remote loop outlived rws: \(leftAtExit)")
            #expect(exitTime < .seconds(1), "try \(attempt): signal to exit (loop gone) took \(exitTime)")
            #expect(run.errors.collected.isEmpty, "try \(attempt): printed \(run.errors.collected)")
            exitTimes.append(exitTime)
            if !leftAtExit.isEmpty { try watch.signal(SIGKILL) }  // not left to confuse the next try
        }
        let sorted = exitTimes.sorted()
        print("\(kind), signal \(signal): \(sorted.count) tries, signal to exit median \(sorted[sorted.count / 2]), max \(sorted.last!)")
    }

    @Test(arguments: ServerKind.allCases)
    func ctrlCAtATerminalStopsTheRemoteLoopAndTheShellSees130(kind: ServerKind) async throws {
        let box = try SessionCommandsTests.sessionBox(kind)
        defer { box.remove() }
        let watch = RunningRws.loopWatch(box)
        let tmux = try Tmux.start(home: box.localHome)
        defer { tmux.stop() }
        try await tmux.waitForLastLine(Tmux.localPrompt)
        let words = [RWSBinary.path, "history"] + box.server.rwsFlags + ["--claude-dir", box.claudeDirectory, "7777", "--follow"]
        try tmux.type(try words.map(ShellQuoting.quote).joined(separator: " ") + "; echo \"rws-exit=$?\"")
        #expect(try await watch.waitUntilRunning(within: 30))
        try tmux.press("C-c")
        try await tmux.wait(for: "rws-exit=130", within: .seconds(10))
        let left = watch.running()
        #expect(left.isEmpty, "the remote loop outlived rws: \(left)")
        if !left.isEmpty { try watch.signal(SIGKILL) }
    }

    @Test(arguments: ServerKind.allCases)
    func aHangupStopsTheRemoteLoopToo(kind: ServerKind) async throws {
        let box = try SessionCommandsTests.sessionBox(kind)
        defer { box.remove() }
        let run = try RunningRws(box)
        let watch = RunningRws.loopWatch(box)
        #expect(try await watch.waitUntilRunning(within: 30))
        try SystemCall.kill(run.process.processIdentifier, SIGHUP)
        #expect(await run.waitForExit(within: 10))
        let left = watch.running()
        #expect(left.isEmpty, "the remote loop outlived rws: \(left)")
        if !left.isEmpty { try watch.signal(SIGKILL) }
        #expect(run.process.terminationReason == .exit && run.process.terminationStatus == 129)
    }
}
