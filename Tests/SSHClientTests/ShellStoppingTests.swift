import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// `InteractiveShell.close()` must end every process started from the terminal, checked in the
/// process table, on both servers, and leave the connection and other commands running.
@Suite struct ShellStoppingTests {
    private typealias Remote = RemoteProcesses

    /// Connects to the shared server of `kind` with a short grace period, runs `body`, closes.
    private func withConnection(_ kind: ServerKind, _ body: (SSHConnection) async throws -> Void) async throws {
        try await SharedTestServer.get(kind).withConnection(adjusting: { $0.terminationGracePeriod = .milliseconds(500) }, body)
    }

    @Test(arguments: ServerKind.allCases)
    func closeEndsBackgroundJobsNohupAndAProgramIgnoringTERM(kind: ServerKind) async throws {
        try await withConnection(kind) { (connection) async throws in
            let job = Remote.uniqueSeconds(), nohup = Remote.uniqueSeconds(), stubborn = Remote.uniqueSeconds()
            let session = try await PromptedShell.open(connection)
            try await session.run("sleep \(job) &")
            try await session.run("nohup sleep \(nohup) >/dev/null 2>&1 &")
            try await session.shell.send("sh -c 'trap \"\" HUP INT TERM; printf \"ign\"\"oring\\n\"; exec sleep \(stubborn)'\r")
            try await session.transcript.wait(for: "ignoring\r\n")
            // A job is `sleep` only once its shell's fork has exec'd it, which may come after the prompt.
            let sleeps = { [job, nohup, stubborn].map { Remote.pids(running: "sleep \($0)").count } }
            try await Remote.waitUntil(state: { "running: \(sleeps())" }) { sleeps() == [1, 1, 1] }
            try await session.shell.close()
            for seconds in [job, nohup, stubborn] { #expect(Remote.matching("sleep \(seconds)") == []) }
            #expect(try await connection.run("echo still here").stdoutText == "still here\n")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func closeEndsACommandRunInTheTerminalWithItsBackgroundChild(kind: ServerKind) async throws {
        try await withConnection(kind) { (connection) async throws in
            let child = Remote.uniqueSeconds(), parent = Remote.uniqueSeconds()
            let shell = try await connection.openShell(ShellConfiguration(command: "sleep \(child) & sleep \(parent)"))
            try await Remote.waitUntil { Remote.pids(running: "sleep \(parent)").count == 1 }
            try await shell.close()
            #expect(Remote.matching("sleep \(child)") == [])
            #expect(Remote.matching("sleep \(parent)") == [])
        }
    }

    @Test(arguments: ServerKind.allCases)
    func closingAShellLeavesAnotherChannelsCommandRunning(kind: ServerKind) async throws {
        try await withConnection(kind) { (connection) async throws in
            let bystander = Remote.uniqueSeconds(), inShell = Remote.uniqueSeconds()
            let other = try connection.stream("sleep \(bystander)")
            let shell = try await connection.openShell(ShellConfiguration(command: "sleep \(inShell)"))
            try await Remote.waitUntil {
                Remote.pids(running: "sleep \(inShell)").count == 1 && Remote.pids(running: "sleep \(bystander)").count == 1
            }
            try await shell.close()
            #expect(Remote.matching("sleep \(inShell)") == [])
            #expect(Remote.pids(running: "sleep \(bystander)").count == 1)
            #expect(try await connection.run("echo still here").stdoutText == "still here\n")
            other.cancel()
            await #expect(throws: SSHError.cancelled(command: "sleep \(bystander)")) { _ = try await other.exitStatus() }
        }
    }
}
