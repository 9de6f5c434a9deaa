import Foundation
import Platform
import RWSTestSupport
import Testing

/// `rws history --follow` whose descriptors run out while it runs: the link lost at that moment
/// cannot come back (no socket, no wake-up pipe can be opened). rws must not crash; once some are
/// free it comes back and shows every line once, in order; if none come free within
/// `--reconnect-for` it ends with 255 and says the descriptors were why.
///
/// The limit is brought down to the descriptor rws keeps in reserve for libdispatch, which traps
/// when its pool monitor cannot open a file while work waits (``LibdispatchDescriptorTrapTests``
/// shows it without rws): rws gives the reserve up when it finds none left, but the trap remains
/// possible before that, so a rws that died of it (SIGILL with no message of Swift's, which a
/// failed precondition of rws's would print) is that known issue; any other end is judged in full.
@Suite(.timeLimit(.minutes(3))) struct FollowDescriptorExhaustionTests {
    @Test(arguments: ServerKind.allCases)
    func aFollowOutOfDescriptorsWhenItsLinkIsLostComesBackOnceSomeAreFree(kind: ServerKind) async throws {
        try await RunningRws.throughProxy(kind) { box, proxy, run in try await comesBack(box, proxy, run) }
    }

    private func comesBack(_ box: TestBox, _ proxy: FaultProxy, _ run: RunningRws) async throws {
        let watch = RunningRws.loopWatch(box)
        defer { try? watch.signal(SIGKILL) }
        let writer = HistoryFollowReconnectTests.Writer()
        let writing = writer.start(SessionCommandsTests.file(in: box), every: .milliseconds(250))
        defer { writer.stop() }
        #expect(await run.output.waitFor("follow-line-2.", seconds: 20))

        try OpenFileLimit.useUp(ofRws: run.process.processIdentifier)
        proxy.cutAll()
        try await Task.sleep(for: .seconds(6))
        if await run.diedOfLibdispatchTrap() { return }
        #expect(run.process.isRunning, "rws ended while out of descriptors: \(run.errors.collected)")
        try OpenFileLimit.set(1024, of: run.process.processIdentifier)
        writer.stop()
        _ = try? await writing.value
        let last = writer.count
        #expect(await run.output.waitFor("follow-line-\(last).", seconds: 30), "\(run.errors.collected)")

        run.process.interrupt()
        #expect(await run.waitForExit(within: 15))
        #expect(run.process.terminationReason == .exit && run.process.terminationStatus == 130, "\(run.errors.collected)")
        #expect(RunningRws.numbers(in: run.output.collected) == Array(1...last), "\(run.errors.collected)")
        #expect(watch.running().isEmpty, "the remote loop is gone when rws exits")
    }

    @Test(arguments: ServerKind.allCases)
    func aFollowThatStaysOutOfDescriptorsGivesUpSayingSo(kind: ServerKind) async throws {
        try await RunningRws.throughProxy(kind, extra: ["--reconnect-for", "5s"]) { _, proxy, run in try await givesUp(proxy, run) }
    }

    private func givesUp(_ proxy: FaultProxy, _ run: RunningRws) async throws {
        try OpenFileLimit.useUp(ofRws: run.process.processIdentifier)
        proxy.cutAll()
        #expect(await run.waitForExit(within: 30))
        if await run.diedOfLibdispatchTrap() { return }
        #expect(run.process.terminationReason == .exit && run.process.terminationStatus == 255, "\(run.errors.collected)")
        let said = run.errors.collected
        #expect(said.contains("rws tried to reconnect for") && said.contains("its tries failing with: "), "\(said)")
        #expect(said.contains("no file descriptor is left") && !said.contains("check that the box is reachable"), "\(said)")
    }
}
