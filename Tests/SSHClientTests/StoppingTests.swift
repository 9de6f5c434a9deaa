import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// Timeouts and cancellation must stop the remote process group, not just stop waiting.
@Suite struct StoppingTests {
    /// Processes on the (local) server whose command line contains `marker`.
    private func processes(matching marker: String) throws -> [String] {
        try Shell.run("/bin/ps", ["-eo", "pid,stat,args"]).split(separator: "\n")
            .filter { $0.contains(marker) && !$0.contains(" Z") }.map(String.init)
    }

    private func uniqueSeconds() -> Int { Int.random(in: 100_000...999_999) }

    @Test func aTimeoutKillsTheCommandAndItsBackgroundChild() async throws {
        let child = uniqueSeconds(), parent = uniqueSeconds()
        try await SharedTestServer.get().withConnection { connection in
            let start = ContinuousClock.now
            await #expect(throws: SSHError.timedOut(command: "sleep \(child) & sleep \(parent)", after: .seconds(1))) {
                try await connection.run("sleep \(child) & sleep \(parent)", timeout: .seconds(1))
            }
            #expect(ContinuousClock.now - start < .seconds(5))
            let leftChild = try processes(matching: "sleep \(child)")
            #expect(leftChild == [])
            let leftParent = try processes(matching: "sleep \(parent)")
            #expect(leftParent == [])
            #expect(try await connection.run("echo still here").stdoutText == "still here\n")
        }
    }

    @Test func cancellingTheTaskKillsTheCommand() async throws {
        let seconds = uniqueSeconds()
        try await SharedTestServer.get().withConnection { connection in
            let task = Task { try await connection.run("sleep \(seconds) & wait") }
            try await waitUntil { try !processes(matching: "sleep \(seconds)").isEmpty }
            task.cancel()
            await #expect(throws: SSHError.cancelled(command: "sleep \(seconds) & wait")) { try await task.value }
            let leftSeconds = try processes(matching: "sleep \(seconds)")
            #expect(leftSeconds == [])
            #expect(try await connection.run("echo still here").stdoutText == "still here\n")
        }
    }

    @Test func cancellingAStreamKillsTheCommand() async throws {
        let seconds = uniqueSeconds()
        try await SharedTestServer.get().withConnection { connection in
            let remote = try connection.stream("echo started; sleep \(seconds)")
            var iterator = remote.output.makeAsyncIterator()
            #expect(try await iterator.next() == .stdout(Array("started\n".utf8)))
            remote.cancel()
            await #expect(throws: SSHError.self) { _ = try await iterator.next() }
            let leftSeconds = try processes(matching: "sleep \(seconds)")
            #expect(leftSeconds == [])
        }
    }

    @Test func timeoutsOfMoreCommandsThanChannelsStillStopThemAll() async throws {
        let seconds = uniqueSeconds()
        try await SharedTestServer.get().withConnection { connection in
            // 12 hung commands fill every slot of a 10-session server; the kills must still get through.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        do {
                            _ = try await connection.run("sleep \(seconds)", timeout: .seconds(1))
                            Issue.record("the command should have timed out")
                        } catch SSHError.timedOut {}
                    }
                }
                try await group.waitForAll()
            }
            let leftSeconds = try processes(matching: "sleep \(seconds)")
            #expect(leftSeconds == [])
        }
    }

    private func waitUntil(_ condition: () throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while try !condition() {
            guard ContinuousClock.now < deadline else { Issue.record("condition not met in 5 s"); return }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
