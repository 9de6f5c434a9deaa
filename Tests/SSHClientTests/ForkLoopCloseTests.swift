import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// A loop that forks faster than it can be killed and ignores TERM, HUP and INT, running when its
/// connection or its shell is closed: the close ends all of it on the box. One case at a time:
/// each fills the process table while it runs.
@Suite(.serialized, .timeLimit(.minutes(2))) struct ForkLoopCloseTests {
    private static func forkLoop(_ seconds: Int) -> String {
        "trap '' TERM HUP INT; while :; do (trap '' TERM HUP INT; exec sleep \(seconds)) & done"
    }

    @Test(arguments: ServerKind.allCases)
    func closingTheConnectionStopsAForkLoopItRuns(kind: ServerKind) async throws {
        let seconds = RemoteProcesses.uniqueSeconds()
        let before = LocalProcessTable.pids().count
        let connection = try await SharedTestServer.get(kind).connect()
        let running = Task { try await connection.run(Self.forkLoop(seconds)) }
        try await RemoteProcesses.waitUntil { RemoteProcesses.pids(running: "sleep \(seconds)").count > 10 }
        await connection.close()
        await #expect(throws: SSHError.connectionClosed) { try await running.value }
        #expect(RemoteProcesses.matching("sleep \(seconds)") == [], "the loop survived close()")
        #expect(try await Eventually.holds(within: .seconds(30)) { LocalProcessTable.pids().count < before + 200 })
    }

    @Test(arguments: ServerKind.allCases)
    func closingAShellStopsAForkLoopInIt(kind: ServerKind) async throws {
        let seconds = RemoteProcesses.uniqueSeconds()
        let before = LocalProcessTable.pids().count
        let connection = try await SharedTestServer.get(kind).connect()
        let shell = try await connection.openShell()
        try await shell.send(Self.forkLoop(seconds) + "\n")
        try await RemoteProcesses.waitUntil { RemoteProcesses.pids(running: "sleep \(seconds)").count > 10 }
        try await shell.close()
        #expect(RemoteProcesses.matching("sleep \(seconds)") == [], "the loop survived the shell's close")
        await connection.close()
        #expect(try await Eventually.holds(within: .seconds(30)) { LocalProcessTable.pids().count < before + 200 })
    }
}
