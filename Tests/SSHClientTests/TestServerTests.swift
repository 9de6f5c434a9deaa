import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// Each kind of test server is a real server on 127.0.0.1 with its own keys and sandbox home.
@Suite struct TestServerTests {
    @Test(arguments: ServerKind.allCases)
    func connectsRunsACommandQuietlyInTheSandboxHome(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        try await server.withConnection { connection in
            let result = try await connection.run("echo \"$HOME\"; echo out; echo err >&2")
            // Exactly the command's output: no profile or rc-file noise, HOME is the sandbox.
            #expect(result.stdoutText == server.remoteHome + "\nout\n")
            #expect(result.stderrText == "err\n")
            #expect(result.status == .exited(0))
        }
    }

    @Test(arguments: ServerKind.allCases)
    func theHostKeyIsCheckedAgainstKnownHosts(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rws-kh-\(UUID().uuidString.prefix(8))").path
        try Shell.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", scratch])
        let other = try String(contentsOfFile: scratch + ".pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        var configuration = server.configuration()
        configuration.knownHostsFile = scratch + "-known_hosts"
        try "[127.0.0.1]:\(server.port) \(other)\n".write(toFile: configuration.knownHostsFile, atomically: true, encoding: .utf8)
        do {
            _ = try await SSHConnection.connect(configuration)
            Issue.record("a server presenting another key was accepted")
        } catch SSHError.hostKeyChanged {}
    }

    @Test(arguments: ServerKind.allCases)
    func theServerRunsAsTheKindAsked(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        try await server.withConnection { connection in
            let parent = try await connection.run("ps -o args= -p $(ps -o ppid= -p $$)").stdoutText
            #expect(parent.contains(kind == .openssh ? "sshd" : "dropbear"))
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aStartedServerRunsNoConnectionProcessSoATestsFirstFiveConnectionsAllCount(kind: ServerKind) throws {
        // Dropbear closes a fifth unauthenticated connection from one address unanswered while
        // the readiness check's connection still runs (ServerDifferenceTests counts on all five).
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        #expect(server.connectionProcesses.isEmpty, "\(server.connectionProcesses)")
    }

    @Test func dropbearNeverSeesTheRealPasswdHome() throws {
        let server = try SharedTestServer.get(.dropbear)
        let realEntry = try Shell.run("/usr/bin/getent", ["passwd", server.user])
        #expect(!realEntry.contains(server.remoteHome))
    }
}
