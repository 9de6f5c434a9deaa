import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// Timeouts and cancellation must stop every process of the command (checked in the process
/// table), on both servers, and leave the connection and other commands running.
@Suite struct StoppingTests {
    private typealias Remote = RemoteProcesses

    // Also against asyncssh: a stop proven on a server nobody here wrote.
    @Test(arguments: ServerKind.withThirdImplementation)
    func aTimeoutStopsTheCommandAndItsBackgroundChild(kind: ServerKind) async throws {
        let child = Remote.uniqueSeconds(), parent = Remote.uniqueSeconds()
        try await SharedTestServer.get(kind).withConnection { (connection) async throws in
            let command = "sleep \(child) & sleep \(parent)"
            await #expect(throws: SSHError.timedOut(command: command, after: .seconds(1))) {
                try await connection.run(command, timeout: .seconds(1))
            }
            #expect(Remote.matching("sleep \(child)") == [])
            #expect(Remote.matching("sleep \(parent)") == [])
            #expect(try await connection.run("echo still here").stdoutText == "still here\n")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func cancellingTheTaskStopsTheCommand(kind: ServerKind) async throws {
        let seconds = Remote.uniqueSeconds()
        try await SharedTestServer.get(kind).withConnection { (connection) async throws in
            let task = Task { try await connection.run("sleep \(seconds) & wait") }
            try await Remote.waitUntil { !Remote.matching("sleep \(seconds)").isEmpty }
            task.cancel()
            await #expect(throws: SSHError.cancelled(command: "sleep \(seconds) & wait")) { try await task.value }
            #expect(Remote.matching("sleep \(seconds)") == [])
            #expect(try await connection.run("echo still here").stdoutText == "still here\n")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func cancellingAStreamStopsTheCommand(kind: ServerKind) async throws {
        let seconds = Remote.uniqueSeconds()
        try await SharedTestServer.get(kind).withConnection { (connection) async throws in
            let remote = try connection.stream("echo started; sleep \(seconds)")
            var iterator = remote.output.makeAsyncIterator()
            #expect(try await iterator.next() == .stdout(Array("started\n".utf8)))
            remote.cancel()
            await #expect(throws: SSHError.cancelled(command: "echo started; sleep \(seconds)")) { _ = try await iterator.next() }
            #expect(Remote.matching("sleep \(seconds)") == [])
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aChildThatIgnoresTERMIsKilledAfterTheGracePeriod(kind: ServerKind) async throws {
        let stubborn = Remote.uniqueSeconds(), parent = Remote.uniqueSeconds()
        let command = "sh -c 'trap \"\" TERM HUP; exec sleep \(stubborn)' & sleep \(parent)"
        try await SharedTestServer.get(kind).withConnection(adjusting: { $0.terminationGracePeriod = .milliseconds(500) }) {
            (connection) async throws in
            await #expect(throws: SSHError.timedOut(command: command, after: .seconds(1))) {
                try await connection.run(command, timeout: .seconds(1))
            }
            #expect(Remote.matching("sleep \(stubborn)") == [])
            #expect(Remote.matching("sleep \(parent)") == [])
        }
    }

    @Test(arguments: ServerKind.allCases)
    func everyStageOfAPipelineIsStopped(kind: ServerKind) async throws {
        let first = Remote.uniqueSeconds(), second = Remote.uniqueSeconds()
        try await SharedTestServer.get(kind).withConnection { (connection) async throws in
            let command = "sleep \(first) | sleep \(second) | cat"
            await #expect(throws: SSHError.timedOut(command: command, after: .seconds(1))) {
                try await connection.run(command, timeout: .seconds(1))
            }
            #expect(Remote.matching("sleep \(first)") == [])
            #expect(Remote.matching("sleep \(second)") == [])
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aChildThatCallsSetsidWithoutForkingIsStillStopped(kind: ServerKind) async throws {
        let seconds = Remote.uniqueSeconds()
        try await SharedTestServer.get(kind).withConnection { (connection) async throws in
            let command = "setsid sleep \(seconds) & wait"
            await #expect(throws: SSHError.timedOut(command: command, after: .seconds(1))) {
                try await connection.run(command, timeout: .seconds(1))
            }
            #expect(Remote.matching("sleep \(seconds)") == [])
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aGrandchildOrphanedBeforeTheStopIsStillStopped(kind: ServerKind) async throws {
        // The subshell exits at once, so the sleep is adopted by PID 1 before anything looks
        // for it: only the session it stays in ties it to the command.
        let orphan = Remote.uniqueSeconds(), parent = Remote.uniqueSeconds()
        try await SharedTestServer.get(kind).withConnection { (connection) async throws in
            let command = "(sleep \(orphan) &); sleep \(parent)"
            await #expect(throws: SSHError.timedOut(command: command, after: .seconds(1))) {
                try await connection.run(command, timeout: .seconds(1))
            }
            #expect(Remote.matching("sleep \(orphan)") == [])
            #expect(Remote.matching("sleep \(parent)") == [])
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aDaemonThatForksIntoItsOwnSessionEscapesAsDocumented(kind: ServerKind) async throws {
        // `setsid -f` forks, and the forked child starts a session of its own while its parent
        // exits: neither the session nor the process tree leads to it any more. This is the
        // escape docs/architecture.md names; the test pins it down so the docs stay true.
        let daemon = Remote.uniqueSeconds()
        try await SharedTestServer.get(kind).withConnection { (connection) async throws in
            let command = "setsid -f sleep \(daemon); sleep 600"
            await #expect(throws: SSHError.timedOut(command: command, after: .seconds(1))) {
                try await connection.run(command, timeout: .seconds(1))
            }
            let escaped = Remote.pids(running: "sleep \(daemon)")
            #expect(escaped.count == 1)
            Remote.killLocally(escaped)
        }
    }

    @Test(arguments: ServerKind.allCases)
    func anotherChannelsCommandAndTheConnectionSurviveAStop(kind: ServerKind) async throws {
        let bystander = Remote.uniqueSeconds(), stopped = Remote.uniqueSeconds()
        try await SharedTestServer.get(kind).withConnection { (connection) async throws in
            let other = try connection.stream("sleep \(bystander)")
            try await Remote.waitUntil { !Remote.matching("sleep \(bystander)").isEmpty }
            await #expect(throws: SSHError.timedOut(command: "sleep \(stopped) & wait", after: .seconds(1))) {
                try await connection.run("sleep \(stopped) & wait", timeout: .seconds(1))
            }
            #expect(Remote.matching("sleep \(stopped)") == [])
            #expect(Remote.pids(running: "sleep \(bystander)").count == 1)
            #expect(try await connection.run("echo still here").stdoutText == "still here\n")
            other.cancel()
            await #expect(throws: SSHError.cancelled(command: "sleep \(bystander)")) { _ = try await other.exitStatus() }
            #expect(Remote.matching("sleep \(bystander)") == [])
        }
    }

    @Test func timeoutsOfMoreCommandsThanChannelsStillStopThemAll() async throws {
        let seconds = Remote.uniqueSeconds()
        try await SharedTestServer.get(.openssh).withConnection { (connection) async throws in
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
            #expect(Remote.matching("sleep \(seconds)") == [])
        }
    }
}

/// Without `ps` on the box, the kill script reads the process table from `/proc`.
@Suite struct StoppingWithoutPsTests {
    private typealias Remote = RemoteProcesses

    /// A server of `kind` whose sessions find on PATH only the tools the tests use, and no `ps`.
    private static func serverWithoutPs(_ kind: ServerKind) throws -> TestSSHServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rws-nops-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: true)
        for tool in ["awk", "sleep", "setsid", "cat"] {
            try FileManager.default.createSymbolicLink(atPath: folder + "/bin/" + tool, withDestinationPath: "/usr/bin/" + tool)
        }
        return try TestSSHServer.forcing(kind, script: #"PATH=\#(folder)/bin exec /bin/sh -c "$SSH_ORIGINAL_COMMAND""#)
    }

    @Test(arguments: ServerKind.allCases)
    func aTimeoutStopsEverythingOnABoxWithoutPs(kind: ServerKind) async throws {
        let server = try Self.serverWithoutPs(kind)
        defer { server.stop() }
        let orphan = Remote.uniqueSeconds(), parent = Remote.uniqueSeconds()
        try await server.withConnection { (connection) async throws in
            #expect(try await connection.run("command -v ps || echo none").stdoutText == "none\n")
            let command = "(sleep \(orphan) &); sleep \(parent)"
            await #expect(throws: SSHError.timedOut(command: command, after: .seconds(1))) {
                try await connection.run(command, timeout: .seconds(1))
            }
            #expect(Remote.matching("sleep \(orphan)") == [])
            #expect(Remote.matching("sleep \(parent)") == [])
        }
    }

    /// The box has no `date` either: the stop's waits are then bounded by their counts alone,
    /// and a process that ignores HUP and TERM is still frozen and killed.
    @Test(arguments: ServerKind.allCases)
    func aCommandIgnoringTerminationIsKilledOnABoxWithoutPsOrDate(kind: ServerKind) async throws {
        let server = try Self.serverWithoutPs(kind)
        defer { server.stop() }
        let seconds = Remote.uniqueSeconds()
        try await server.withConnection { (connection) async throws in
            #expect(try await connection.run("command -v date || echo none").stdoutText == "none\n")
            let command = "trap '' HUP TERM; sleep \(seconds)"
            await #expect(throws: SSHError.timedOut(command: command, after: .seconds(1))) {
                try await connection.run(command, timeout: .seconds(1))
            }
            #expect(Remote.matching("sleep \(seconds)") == [])
        }
    }
}
