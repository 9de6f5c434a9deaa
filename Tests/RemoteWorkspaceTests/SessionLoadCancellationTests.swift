import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import Testing

/// Cancelling the task that loads a session ends the load with `CancellationError` once what
/// reads the file on the box is stopped, and leaves the connection working.
@Suite(.timeLimit(.minutes(1))) struct SessionLoadCancellationTests {
    @Test(arguments: ServerKind.allCases)
    func cancellingALoadMidTransferStopsItsReadersOnTheBox(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        defer { sandbox.remove() }
        let (id, _) = try SessionLoadCompressionTests.bigSession(in: sandbox)
        let path = sandbox.claudeProjects + "/-home-dev-proj/\(id).jsonl"
        let readers = RemoteProcessWatch(markers: path)
        // 6 MB at 500 kB/s: the readers wait on the link for seconds.
        try await SessionLoadCompressionTests.withSessions(in: sandbox, through: .init(bytesPerSecond: 500_000)) { sessions in
            let load = Task {
                try await sessions.load(try await sessions.findSession(id), options: SessionLoadOptions(compression: .none))
            }
            #expect(try await readers.waitUntilRunning(within: 20), "no reader of the session showed up on the box")
            let cancelled = ContinuousClock.now
            load.cancel()
            let outcome = await load.result
            let took = ContinuousClock.now - cancelled
            #expect(throws: CancellationError.self) { try outcome.get() }
            // The stop's answer comes after what the link already carries (what the channel's
            // window let the box send, queued in the proxy): 8.5 s at this rate when measured.
            #expect(took < .seconds(20), "the load went on for \(took) after its task was cancelled")
            let left = try await readers.leftovers(after: 5)
            #expect(left.isEmpty, "readers of the session still run on the box: \(left)")
            if !left.isEmpty { try readers.signal(SIGKILL) }
            #expect(try await #require(sessions.connection).run("echo still here").stdoutText == "still here\n")
        }
    }
}
