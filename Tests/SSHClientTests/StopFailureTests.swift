import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// A stop that leaves processes running says so, with their PIDs, and never claims "stopped".
///
/// Real case: a command starts a process as another user (what `sudo -u` does) that the login
/// user may not signal. Here every session runs as root without CAP_KILL and the command starts
/// `sleep` as nobody (``TestSSHServer/withoutKillCapability(_:)``).
@Suite struct StopFailureTests {
    private typealias Remote = RemoteProcesses

    @Test(arguments: ServerKind.allCases)
    func aTimeoutThatCannotKillAChildReportsItsPID(kind: ServerKind) async throws {
        let server = try TestSSHServer.withoutKillCapability(kind)
        defer { server.stop() }
        let seconds = Remote.uniqueSeconds()
        let command = TestSSHServer.commandLeavingAnUnkillableChild(seconds)
        try await server.withConnection(adjusting: { $0.terminationGracePeriod = .milliseconds(300) }) { (connection) async throws in
            do {
                _ = try await connection.run(command, timeout: .seconds(1))
                Issue.record("the command should have timed out")
            } catch let error as SSHError {
                let running = Remote.pids(running: "sleep \(seconds)")
                defer { Remote.killLocally(running) }
                try #require(running.count == 1)
                #expect(error == .stopFailed(command: command, survivors: running, commandLines: [running[0]: "sleep \(seconds)"]))
                #expect(error.description.contains("could not stop: PIDs \(running.map(String.init).joined(separator: " ")) still running"))
            }
            #expect(try await connection.run("echo still here").stdoutText == "still here\n")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func closingAShellThatCannotKillAChildThrowsWithItsPID(kind: ServerKind) async throws {
        let server = try TestSSHServer.withoutKillCapability(kind)
        defer { server.stop() }
        let seconds = Remote.uniqueSeconds()
        let command = TestSSHServer.commandLeavingAnUnkillableChild(seconds)
        try await server.withConnection(adjusting: { $0.terminationGracePeriod = .milliseconds(300) }) { (connection) async throws in
            let shell = try await connection.openShell(ShellConfiguration(command: command))
            try await Remote.waitUntil { Remote.pids(running: "sleep \(seconds)").count == 1 }
            do {
                try await shell.close()
                Issue.record("close() should have reported the surviving process")
            } catch let error as SSHError {
                let running = Remote.pids(running: "sleep \(seconds)")
                defer { Remote.killLocally(running) }
                try #require(running.count == 1)
                #expect(error == .stopFailed(command: command, survivors: running, commandLines: [running[0]: "sleep \(seconds)"]))
            }
        }
    }
}
