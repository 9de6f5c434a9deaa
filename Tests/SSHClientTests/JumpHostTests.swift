import Foundation
import Platform
import RWSTestSupport
import SSHClient
import Testing

/// `jumpHosts` (OpenSSH ProxyJump) through real sshd instances: the target is reached at
/// 127.0.0.1:targetPort *from the jump host*, over a direct-tcpip channel of the jump connection.
@Suite struct JumpHostTests {
    /// The target's configuration with `jumps` in front of it.
    private func configuration(_ target: TestSSHServer, through jumps: [TestSSHServer]) -> SSHConnectionConfiguration {
        var configuration = target.configuration()
        configuration.jumpHosts = jumps.map { $0.configuration() }
        return configuration
    }

    @Test(arguments: ServerKind.allCases)
    func commandsAShellAndSFTPRunThroughAJumpHost(kind: ServerKind) async throws {
        let jump = try TestSSHServer(kind)
        defer { jump.stop() }
        // A target of its own: its log speaks for this test alone (DropbearChannelRace).
        let target = try TestSSHServer(kind)
        defer { target.stop() }
        var settings = configuration(target, through: [jump])
        settings.fileTransport = .sftp
        let connection = try await SSHConnection.connect(settings)
        #expect(try jump.connectionProcessCount() > 0, "the jump host holds a connection")
        let result = try await connection.run("echo through; echo err >&2; exit 3")
        #expect(result.stdoutText == "through\n")
        #expect(result.stderrText == "err\n")
        #expect(result.status == .exited(3))

        let shell = try await connection.openShell()
        let transcript = ShellTranscript(shell)
        try await shell.send("echo sh''ell-$((6*7))\r")
        try await transcript.wait(for: "shell-42")
        try await shell.close()

        let payload = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let path = target.remoteHome + "/jump-\(UUID().uuidString.prefix(8)).bin"
        try await connection.writeFile(path, contents: payload)
        #expect(try await connection.readFile(path) == payload)

        // Many at once over the one channel of the jump host, last: dropbear's abort on
        // overlapping commands (its issue 321) ends the whole connection.
        let outputs = try await DropbearChannelRace(target).outcome {
            try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<8 { group.addTask { try await connection.run("echo \(index)").stdoutText } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        if let outputs { #expect(outputs.sorted() == (0..<8).map { "\($0)\n" }) }
        await connection.close()
    }

    @Test(arguments: ServerKind.allCases)
    func closingTheTargetConnectionClosesTheJumpConnection(kind: ServerKind) async throws {
        let jump = try TestSSHServer(kind)
        defer { jump.stop() }
        let target = try SharedTestServer.get(kind)
        let connection = try await SSHConnection.connect(configuration(target, through: [jump]))
        #expect(try await connection.run("true").status == .exited(0))
        #expect(try jump.connectionProcessCount() > 0)
        await connection.close()
        #expect(try await jump.waitForConnectionProcesses(0) == 0, "the jump connection outlived the target connection")
    }

    @Test(arguments: ServerKind.allCases)
    func killingTheJumpHostFailsTheTargetConnectionPromptly(kind: ServerKind) async throws {
        let jump = try TestSSHServer(kind)
        defer { jump.stop() }
        let target = try SharedTestServer.get(kind)
        var settings = configuration(target, through: [jump])
        settings.deadPeerTimeout = .seconds(120)  // the loss must come from the jump, not from keepalives
        let connection = try await SSHConnection.connect(settings)
        let running = try connection.stream("echo started; sleep 60")
        var output = running.output.makeAsyncIterator()
        _ = try await output.next()
        let killed = ContinuousClock.now
        jump.signalAll(SIGKILL)
        await #expect { _ = try await running.exitStatus() } throws: { error in
            guard case SSHError.connectionLost = error else { return false }
            return true
        }
        #expect(ContinuousClock.now - killed < .seconds(10))
        #expect(connection.isClosed)
        await #expect(throws: SSHError.self) { _ = try await connection.run("true") }
        await connection.close()
    }

    @Test(arguments: ServerKind.allCases)
    func anIdleConnectionThroughAJumpHostOutlivesTheDeadPeerTimeout(kind: ServerKind) async throws {
        let jump = try TestSSHServer(kind)
        defer { jump.stop() }
        let target = try SharedTestServer.get(kind)
        // libssh2 sends keepalives at most every 2 s: 5 s of silence is a dead peer.
        var settings = target.configuration(deadPeerTimeout: .seconds(5))
        settings.jumpHosts = [jump.configuration(deadPeerTimeout: .seconds(5))]
        let connection = try await SSHConnection.connect(settings)
        #expect(try await connection.run("echo before").stdoutText == "before\n")
        try await Task.sleep(for: .seconds(11))  // idle: the jump connection carries nothing but keepalives
        #expect(!connection.isClosed)
        #expect(try await connection.run("echo after").stdoutText == "after\n")
        await connection.close()
    }

    @Test(arguments: ServerKind.allCases)
    func losingTheTargetClosesTheJumpConnection(kind: ServerKind) async throws {
        let jump = try TestSSHServer(kind)
        defer { jump.stop() }
        let target = try TestSSHServer(kind)
        defer { target.stop() }
        let connection = try await SSHConnection.connect(configuration(target, through: [jump]))
        let running = try connection.stream("echo started; sleep 60")
        var output = running.output.makeAsyncIterator()
        _ = try await output.next()
        target.signalAll(SIGKILL)
        await #expect { _ = try await running.exitStatus() } throws: { error in
            guard case SSHError.connectionLost = error else { return false }
            return true
        }
        #expect(try await jump.waitForConnectionProcesses(0) == 0, "the jump connection outlived the lost target")
        await connection.close()
    }

    @Test(arguments: ServerKind.allCases)
    func twoJumpHostsAreCrossedInOrder(kind: ServerKind) async throws {
        let first = try TestSSHServer(kind)
        defer { first.stop() }
        let second = try TestSSHServer(kind)
        defer { second.stop() }
        let target = try SharedTestServer.get(kind)
        let connection = try await SSHConnection.connect(configuration(target, through: [first, second]))
        #expect(try await connection.run("echo two hops").stdoutText == "two hops\n")
        #expect(try first.connectionProcessCount() > 0)
        #expect(try second.connectionProcessCount() > 0)
        await connection.close()
        #expect(try await second.waitForConnectionProcesses(0) == 0)
        #expect(try await first.waitForConnectionProcesses(0) == 0)
    }

    @Test func aJumpHostThatForbidsForwardingFailsNamingTheJumpHost() async throws {
        let jump = try TestSSHServer(.openssh, .init(extraConfig: ["AllowTcpForwarding no"]))
        defer { jump.stop() }
        let target = try SharedTestServer.get()
        do {
            _ = try await SSHConnection.connect(configuration(target, through: [jump]))
            Issue.record("connected through a jump host that forbids forwarding")
        } catch let SSHError.connectionRefused(host, port, reason) {
            #expect(host == "127.0.0.1")
            #expect(port == target.port)
            #expect(reason.contains("jump host 127.0.0.1 port \(jump.port)"))
        }
        #expect(try await jump.waitForConnectionProcesses(0) == 0)
    }

    @Test(arguments: ServerKind.allCases)
    func aJumpHostWithJumpHostsOfItsOwnIsRefusedBeforeAnythingConnects(kind: ServerKind) async throws {
        let target = try SharedTestServer.get(kind)
        var nested = target.configuration()
        nested.jumpHosts = [target.configuration()]
        var settings = target.configuration()
        settings.jumpHosts = [nested]
        await #expect { _ = try await SSHConnection.connect(settings) } throws: { error in
            guard case SSHError.invalidArgument(let message) = error else { return false }
            return message.contains("whole chain")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func theJumpHostKeyIsCheckedWithTheJumpHostsOwnSettings(kind: ServerKind) async throws {
        let jump = try TestSSHServer(kind)
        defer { jump.stop() }
        let target = try SharedTestServer.get(kind)
        var settings = configuration(target, through: [jump])
        settings.jumpHosts[0].knownHostsFile = target.knownHostsPath  // knows the target, not the jump host
        do {
            _ = try await SSHConnection.connect(settings)
            Issue.record("an unknown jump host key was accepted")
        } catch let SSHError.hostKeyUnknown(host, port, _, _, _) {
            #expect(host == "127.0.0.1")
            #expect(port == jump.port)
        }
    }
}
