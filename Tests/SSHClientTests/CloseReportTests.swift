import Foundation
import RWSTestSupport
import Testing

@testable import SSHClient

/// A close waits for the stops it starts, but only so long (the grace period and 3 s more): a
/// stop still running then is reported by PID, never called done, and its processes are left as
/// they are (`kill -- -PID` on the box ends them).
@Suite(.timeLimit(.minutes(1))) struct CloseReportTests {
    @Test(arguments: ServerKind.allCases)
    func aStopStillRunningWhenTheCloseGivesUpIsReportedByPID(kind: ServerKind) async throws {
        let server = try TestSSHServer.withSlowStops(kind, delay: .seconds(20))
        defer { server.stop() }
        var configuration = server.configuration()
        configuration.terminationGracePeriod = .seconds(1)
        let connection = try await SSHConnection.connect(configuration)
        let command = "sleep \(RemoteProcesses.uniqueSeconds())"
        let running = Task { try await connection.run(command) }
        try await RemoteProcesses.waitUntil(within: .seconds(10)) { !RemoteProcesses.pids(running: command).isEmpty }
        let sleeping = RemoteProcesses.pids(running: command)
        defer { RemoteProcesses.killLocally(RemoteProcesses.pids(running: command)) }

        let start = ContinuousClock.now
        let unfinished = await connection.close()
        let took = ContinuousClock.now - start

        #expect(took < .seconds(8), "the close waited \(took) (grace 1 s + 3 s)")
        let report = try #require(unfinished.first, "nothing was reported")
        #expect(unfinished.count == 1 && report.command == command && report.waited == .seconds(4), "\(unfinished)")
        #expect(report.description.contains("kill -- -\(report.pid) there"), "\(report)")
        // Reported, not called stopped: the command still runs on the box.
        #expect(!sleeping.isEmpty && RemoteProcesses.pids(running: command) == sleeping, "the command was stopped after all")
        await #expect(throws: SSHError.self) { try await running.value }
    }
}
