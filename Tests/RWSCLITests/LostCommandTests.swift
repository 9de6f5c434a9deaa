import Foundation
import Platform
import RWSTestSupport
import Synchronization
import Testing

/// A command whose link is lost while it runs is accounted for: rws says it may still be running
/// on the box, and under which PID.
@Suite struct LostCommandTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-cli-home-\(UUID().uuidString.prefix(8))").path
    /// A keepalive each second, the link dead after four unanswered: a black hole is found within
    /// seconds instead of rws's default 20.
    static let keepalive = (interval: 1, count: 4)

    private func sleeping(_ seconds: Int) -> [LocalProcessTable.Process] {
        LocalProcessTable.live(running: "sleep \(seconds)")
    }

    /// The command's `sleep` that should outlive the link, waited for up to 3 s. Once, on a busy
    /// box, none was found at once on either server (why is not known); the wait tells a `sleep`
    /// not exec'd yet from one that something killed.
    private func outliving(_ seconds: Int) async throws -> [LocalProcessTable.Process] {
        let deadline = ContinuousClock.now + .seconds(3)
        var found = sleeping(seconds)
        while found.isEmpty, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            found = sleeping(seconds)
        }
        return found
    }

    @Test(arguments: ServerKind.allCases)
    func aCutLinkDoesNotExemptACommandFromItsTimeout(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let seconds = Int.random(in: 100_000...999_999)
        let started = ContinuousClock.now
        let outcome = try await RWSBinary.run(
            ["exec"] + server.rwsFlags(through: proxy) + ["--timeout", "4s", "--", "echo started; sleep \(seconds)"], home: home,
            after: "started\n", within: .seconds(20)
        ) { _ in proxy.cutAll() }
        let left = sleeping(seconds)
        defer { for process in left { _ = try? SystemCall.kill(process.pid, SIGKILL) } }
        #expect(outcome.status == 124, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("rws reconnected and, at its timeout of 4s, stopped it"), "\(outcome.stderr)")
        #expect(ContinuousClock.now - started >= .seconds(4))
        #expect(left.isEmpty)
    }

    /// The link lost while the command ran, and again while rws's stop ran at the timeout: rws
    /// reconnects once more and stops it. The command ignores HUP and TERM, so the stop takes its
    /// 2 s grace, long enough to be found on the box and cut.
    @Test(arguments: ServerKind.allCases)
    func aStopTheLinkCutsOffIsTriedAgainOnANewConnection(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let seconds = Int.random(in: 100_000...999_999)
        let stopCut = Mutex(false)
        let sleeps: @Sendable () -> [LocalProcessTable.Process] = { LocalProcessTable.live(running: "sleep \(seconds)") }
        let outcome = try await RWSBinary.run(
            ["exec"] + server.rwsFlags(through: proxy)
                + ["--timeout", "3s", "--", "trap '' HUP TERM; echo started; while :; do sleep \(seconds); done"],
            home: home, after: "started\n", within: .seconds(20)
        ) { _ in
            proxy.cutAll()
            let deadline = ContinuousClock.now + .seconds(15)
            while ContinuousClock.now < deadline {
                // The kill script names the command's session leader among its arguments.
                if let session = sleeps().first?.session,
                    LocalProcessTable.live(containing: "rws-stop-cmd:").contains(where: { $0.arguments.contains(" rws \(session) ") })
                {
                    proxy.cutAll()
                    stopCut.withLock { $0 = true }
                    return
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        let left = LocalProcessTable.live(containing: "while :; do sleep \(seconds)")
        defer { for process in sleeps() + left { _ = try? SystemCall.kill(process.pid, SIGKILL) } }
        #expect(stopCut.withLock { $0 }, "the stop at the timeout was never seen on the box")
        #expect(outcome.status == 124, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("rws reconnected and, at its timeout of 3s, stopped it"), "\(outcome.stderr)")
        #expect(left.isEmpty && sleeps().isEmpty, "\(left)")
    }

    @Test(arguments: ServerKind.allCases)
    func aTimeoutThatCannotReconnectSaysUnderWhichPIDTheCommandMayStillRun(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let proxy = try FaultProxy(targetPort: server.port)
        let seconds = Int.random(in: 100_000...999_999)
        let outcome = try await RWSBinary.run(
            ["exec"] + server.rwsFlags(through: proxy) + ["--timeout", "3s", "--", "echo started; sleep \(seconds)"], home: home,
            after: "started\n", within: .seconds(20)
        ) { _ in proxy.stop() }
        let left = try await outliving(seconds)
        defer { for process in left { _ = try? SystemCall.kill(process.pid, SIGKILL) } }
        try #require(left.count == 1, "the command should outlive the stopped link; rws said: \(outcome.stderr)")
        #expect(outcome.status == 255, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("the command may still be running on the box as PID \(left[0].session)"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("could not reconnect within its timeout of 3s"), "\(outcome.stderr)")
    }

    @Test(arguments: ServerKind.allCases)
    func aCutLinkSaysTheCommandMayStillRunAndUnderWhichPID(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let seconds = Int.random(in: 100_000...999_999)
        let outcome = try await RWSBinary.run(
            ["exec"] + server.rwsFlags(through: proxy) + ["--", "echo started; sleep \(seconds)"], home: home, after: "started\n"
        ) { _ in proxy.cutAll() }
        #expect(outcome.status == 255)
        let sleeping = try await outliving(seconds)
        defer { for process in sleeping { _ = try? SystemCall.kill(process.pid, SIGKILL) } }
        try #require(sleeping.count == 1, "the command should outlive the cut link (no terminal hangs it up); rws said: \(outcome.stderr)")
        let session = sleeping[0].session
        #expect(outcome.stderr.contains("connection lost"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("the command may still be running on the box as PID \(session)"), "\(outcome.stderr)")
    }

    @Test(arguments: ServerKind.allCases)
    func aBlackHoledLinkSaysTheCommandMayStillRunAndUnderWhichPID(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let seconds = Int.random(in: 100_000...999_999)
        let outcome = try await RWSBinary.run(
            ["exec"] + server.rwsFlags(through: proxy, keepalive: Self.keepalive) + ["--", "echo started; sleep \(seconds)"],
            home: home, after: "started\n", within: .seconds(20)
        ) { _ in proxy.setBlackHole(true) }
        let left = try await outliving(seconds)
        defer { for process in left { _ = try? SystemCall.kill(process.pid, SIGKILL) } }
        try #require(left.count == 1, "the command should outlive the lost link (no terminal hangs it up); rws said: \(outcome.stderr)")
        #expect(outcome.status == 255)
        #expect(outcome.stderr.contains("the command may still be running on the box as PID \(left[0].session)"), "\(outcome.stderr)")
    }

    @Test(arguments: ServerKind.allCases)
    func aBlackHoleDoesNotExemptACommandFromItsTimeout(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let seconds = Int.random(in: 100_000...999_999)
        let outcome = try await RWSBinary.run(
            ["exec"] + server.rwsFlags(through: proxy, keepalive: Self.keepalive)
                + ["--timeout", "14s", "--", "echo started; sleep \(seconds)"], home: home, after: "started\n", within: .seconds(20)
        ) { _ in
            // Long enough for rws to find the link dead (keepalives unanswered for 4 s), short of the timeout.
            proxy.setBlackHole(true)
            Thread.sleep(forTimeInterval: 8)
            proxy.setBlackHole(false)
        }
        let left = sleeping(seconds)
        defer { for process in left { _ = try? SystemCall.kill(process.pid, SIGKILL) } }
        #expect(outcome.status == 124, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("rws reconnected and, at its timeout of 14s, stopped it"), "\(outcome.stderr)")
        #expect(left.isEmpty)
    }
}
