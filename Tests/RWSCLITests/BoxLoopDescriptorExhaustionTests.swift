import Foundation
import Platform
import RWSTestSupport
import SessionHistory
import Testing

/// The box runs out of file descriptors under a long-lived command: the loop `history --follow`
/// and `watch` keep on the box is held to three open files while it runs, so its shell can
/// neither redirect nor substitute a command. The follow must say so (never that the session file
/// is gone) and, like the watch, start its loop again and go on where it was: nothing lost, nothing
/// shown twice.
@Suite(.timeLimit(.minutes(2))) struct BoxLoopDescriptorExhaustionTests {
    /// Holds the shell running the remote loop of `watch` (not its children) to three files, at a
    /// moment it waits for its `sleep` between two looks: stopped, checked, limited, continued.
    /// A limit that fell in the middle of a look could end the shell there (dash exits on a failed
    /// substitution or a failed redirection of a compound command), which the loop cannot report.
    private static func exhaust(_ watch: RemoteProcessWatch) async throws -> [Int32] {
        for _ in 0..<200 {
            let shells = watch.running().filter { process in watch.markers.allSatisfy(process.arguments.contains) }.map(\.pid)
            for pid in shells { try SystemCall.kill(pid, SIGSTOP) }
            let waiting = shells.filter { shell in
                LocalProcessTable.children(of: shell).contains { LocalProcessTable.process($0)?.arguments.hasPrefix("sleep ") == true }
            }
            for pid in waiting { try OpenFileLimit.set(OpenFileLimit.nothingLeft, of: pid) }
            for pid in shells { try SystemCall.kill(pid, SIGCONT) }
            if !waiting.isEmpty { return waiting }
            try await Task.sleep(for: .milliseconds(20))
        }
        return []
    }

    @Test(arguments: ServerKind.allCases)
    func aFollowWhoseLoopRunsOutOfDescriptorsSaysSoAndGoesOnWithEveryLineOnce(kind: ServerKind) async throws {
        let box = try SessionCommandsTests.sessionBox(kind)
        defer { box.remove() }
        let run = try RunningRws(box)
        defer { if run.process.isRunning { run.kill() } }
        let watch = RunningRws.loopWatch(box)
        defer { try? watch.signal(SIGKILL) }
        #expect(await run.output.waitFor("▸ Bash(ls) → 2 lines", seconds: 30))
        let writer = HistoryFollowReconnectTests.Writer()
        let writing = writer.start(SessionCommandsTests.file(in: box), every: .milliseconds(250))
        defer { writer.stop() }
        #expect(await run.output.waitFor("follow-line-2.", seconds: 20))

        let held = try await Self.exhaust(watch)
        #expect(!held.isEmpty, "no follow loop found on the box")
        #expect(await run.errors.waitFor("the box is out of file descriptors", seconds: 15), "\(run.errors.collected)")
        // The loop starts again, held to nothing this time: every line written meanwhile arrives.
        try await Task.sleep(for: .seconds(1))
        writer.stop()
        _ = try? await writing.value
        let last = writer.count
        #expect(await run.output.waitFor("follow-line-\(last).", seconds: 20), "\(run.errors.collected)")

        run.process.interrupt()
        #expect(await run.waitForExit(within: 15))
        #expect(run.process.terminationReason == .exit && run.process.terminationStatus == 130, "\(run.errors.collected)")
        #expect(RunningRws.numbers(in: run.output.collected) == Array(1...last), "\(run.errors.collected)")
        #expect(!run.output.collected.contains("the session file is gone"), "\(run.output.collected)")
        #expect(run.errors.collected.components(separatedBy: "out of file descriptors").count == 2, "\(run.errors.collected)")
        #expect(held.allSatisfy { LocalProcessTable.process($0) == nil || LocalProcessTable.process($0)?.isZombie == true })
        #expect(watch.running().isEmpty, "the remote loop is gone when rws exits")
    }

    @Test(arguments: ServerKind.allCases)
    func aWatchWhoseLoopRunsOutOfDescriptorsGoesOnWithEveryEventOnce(kind: ServerKind) async throws {
        let box = try TestBox(kind)
        defer { box.remove() }
        let claude = ["--claude-dir", box.claudeDirectory]
        let installed = try await RWSBinary.run(["hooks", "install"] + box.server.rwsFlags + claude, home: box.localHome)
        #expect(installed.status == 0, "\(installed.stderr)")
        let run = try RunningRws(["watch", "--json"] + box.server.rwsFlags + claude, home: box.localHome)
        defer { if run.process.isRunning { run.kill() } }
        #expect(
            try await Eventually.holds(within: .seconds(20)) { FileManager.default.fileExists(atPath: box.claudeDirectory + "/rws/lease") })
        try LongLivedDescriptorExhaustionTests.report("first", box)
        #expect(await run.output.waitFor("finished: first.", seconds: 20), "\(run.errors.collected)")

        let watch = RemoteProcessWatch(markers: box.claudeDirectory + "/rws", "while :; do")
        defer { try? watch.signal(SIGKILL) }
        #expect(!(try await Self.exhaust(watch)).isEmpty, "no watch loop found on the box")
        try LongLivedDescriptorExhaustionTests.report("second", box)
        #expect(await run.output.waitFor("finished: second.", seconds: 20), "\(run.errors.collected)")

        run.process.interrupt()
        #expect(await run.waitForExit(within: 15))
        #expect(run.process.terminationReason == .exit && run.process.terminationStatus == 130, "\(run.errors.collected)")
        let summaries = try run.output.collected.split(separator: "\n").map { try JSONValue(parsing: String($0))["summary"]?.stringValue }
        #expect(summaries == ["finished: first.", "finished: second."], "\(run.output.collected)")
    }
}
