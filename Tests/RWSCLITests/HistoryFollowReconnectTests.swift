import Foundation
import Platform
import RWSTestSupport
import Synchronization
import Testing

/// `rws history --follow` survives the link: through a cut and a black hole (10 s in the suite,
/// 30 s under `RWS_SOAK=full`, scripts/soak-tests; rws finds it dead after 4 s) it reconnects by
/// itself and shows every line written meanwhile exactly once, in order.
@Suite(.timeLimit(.minutes(5))) struct HistoryFollowReconnectTests {
    /// Appends numbered assistant messages to the session file, one each `every`, until stopped.
    final class Writer: Sendable {
        private let written = Mutex(0)
        private let stopped = Mutex(false)
        var count: Int { written.withLock { $0 } }

        func start(_ file: String, every interval: Duration) -> Task<Void, any Error> {
            Task {
                while !stopped.withLock({ $0 }) {
                    try append(to: file)
                    try await Task.sleep(for: interval)
                }
            }
        }

        func stop() { stopped.withLock { $0 = true } }

        private func append(to file: String) throws {
            let number = written.withLock { $0 } + 1
            let parent = number == 1 ? "u2" : "f\(number - 1)"
            let line =
                #"{"parentUuid":"\#(parent)","isSidechain":false,"type":"assistant","uuid":"f\#(number)","#
                + #""sessionId":"\#(SessionCommandsTests.id)","timestamp":"2026-01-02T10:01:00.000Z","message":{"id":"fm\#(number)","#
                + #""role":"assistant","model":"claude-test","content":[{"type":"text","text":"follow-line-\#(number)."}]}}"#
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data((line + "\n").utf8))
            try handle.close()
            written.withLock { $0 = number }
        }
    }

    @Test(arguments: ServerKind.allCases)
    func everyLineWrittenThroughACutAndABlackHoleIsShownOnceInOrder(kind: ServerKind) async throws {
        try await RunningRws.throughProxy(kind) { box, proxy, run in try await followThroughACutAndABlackHole(box, proxy, run) }
    }

    private func followThroughACutAndABlackHole(_ box: TestBox, _ proxy: FaultProxy, _ run: RunningRws) async throws {
        let watch = RunningRws.loopWatch(box)
        let writer = Writer()
        let writing = writer.start(SessionCommandsTests.file(in: box), every: .milliseconds(250))
        #expect(await run.output.waitFor("follow-line-3.", seconds: 20))
        proxy.cutAll()
        try await Task.sleep(for: .seconds(2))
        #expect(await run.output.waitFor("follow-line-\(writer.count).", seconds: 30), "\(run.errors.collected)")
        proxy.setBlackHole(true)
        try await Task.sleep(for: SoakLength.duration(full: .seconds(30), sample: .seconds(10)))
        proxy.setBlackHole(false)
        try await Task.sleep(for: .seconds(1))
        writer.stop()
        _ = try? await writing.value
        let last = writer.count
        #expect(await run.output.waitFor("follow-line-\(last).", seconds: 120), "\(run.errors.collected)")
        run.process.interrupt()
        #expect(await run.waitForExit(within: 15))
        #expect(RunningRws.numbers(in: run.output.collected) == Array(1...last), "\(run.errors.collected)")
        #expect(run.process.terminationStatus == 130)
        #expect(proxy.acceptedConnections >= 2, "the cut link was re-established")
        let left = watch.running()
        #expect(left.isEmpty, "the remote loop is gone when rws exits: \(left)")
        if !left.isEmpty { try watch.signal(SIGKILL) }
    }

    /// With the box gone for longer than `--reconnect-for`, the follow gives up with 255 and says
    /// how long it tried; its loop on the box ended with the link.
    @Test(arguments: ServerKind.allCases)
    func aLinkThatDoesNotComeBackEndsTheFollowWith255SayingHowLongRwsTried(kind: ServerKind) async throws {
        let box = try SessionCommandsTests.sessionBox(kind)
        defer { box.remove() }
        let proxy = try FaultProxy(targetPort: box.server.port)
        defer { proxy.stop() }
        let run = try RunningRws(box, flags: try box.server.rwsFlags(through: proxy), extra: ["--reconnect-for", "3s"])
        defer { if run.process.isRunning { run.kill() } }
        let watch = RunningRws.loopWatch(box)
        #expect(await run.output.waitFor("▸ Bash(ls) → 2 lines", seconds: 30))
        #expect(try await watch.waitUntilRunning(within: 30))
        let lost = ContinuousClock.now
        proxy.stop()  // the listener goes too: every reconnect attempt is refused
        #expect(await run.waitForExit(within: 60), "rws gave up")
        let tried = ContinuousClock.now - lost
        #expect(run.process.terminationStatus == 255)
        let errors = run.errors.collected
        #expect(errors.contains("rws tried to reconnect for") && errors.contains("and gave up"), "\(errors)")
        // Why the tries failed, not only the loss they followed.
        #expect(errors.contains("its tries failing with: ") && errors.lowercased().contains("refused"), "\(errors)")
        #expect(tried >= .seconds(2) && tried < .seconds(30), "attempts for about --reconnect-for (3 s, ±20 % jitter): \(tried)")
        let left = try await watch.leftovers(after: 10)
        #expect(left.isEmpty, "the loop on the box ended with the link: \(left)")
    }

    @Test(arguments: ServerKind.allCases)
    func noReconnectEndsAtTheFirstCutWith255(kind: ServerKind) async throws {
        let box = try SessionCommandsTests.sessionBox(kind)
        defer { box.remove() }
        let proxy = try FaultProxy(targetPort: box.server.port)
        defer { proxy.stop() }
        let run = try RunningRws(box, flags: try box.server.rwsFlags(through: proxy), extra: ["--no-reconnect"])
        defer { if run.process.isRunning { run.kill() } }
        #expect(await run.output.waitFor("▸ Bash(ls) → 2 lines", seconds: 30))
        #expect(try await RunningRws.loopWatch(box).waitUntilRunning(within: 30))
        proxy.cutAll()
        #expect(await run.waitForExit(within: 15))
        #expect(run.process.terminationStatus == 255)
        #expect(run.errors.collected.contains("connection"), "\(run.errors.collected)")
    }
}
