import Foundation
import RWSTestSupport
import Testing

/// `rws` through a jump host: `-J` on the command line and `ProxyJump` in the sandbox HOME's ssh config.
@Suite struct JumpCommandTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-cli-jump-\(UUID().uuidString.prefix(8))").path

    /// A jump host of the target's kind that accepts the target's client key, and one known_hosts file for both servers.
    private func jumpHost(for target: TestSSHServer) throws -> (TestSSHServer, String) {
        let jump = try TestSSHServer(target.kind)
        try jump.authorize(publicKeyFile: target.clientKeyPath + ".pub")
        let knownHosts = home + "-known_hosts"
        let lines =
            try String(contentsOfFile: target.knownHostsPath, encoding: .utf8)
            + String(contentsOfFile: jump.knownHostsPath, encoding: .utf8)
        try lines.write(toFile: knownHosts, atomically: true, encoding: .utf8)
        return (jump, knownHosts)
    }

    @Test(arguments: ServerKind.allCases)
    func execReachesTheTargetThroughDashJ(kind: ServerKind) async throws {
        let target = try SharedTestServer.get(kind)
        let (jump, knownHosts) = try jumpHost(for: target)
        defer { jump.stop() }
        let flags = [
            "-J", "\(jump.user)@127.0.0.1:\(jump.port)", "--host", "\(target.user)@127.0.0.1:\(target.port)",
            "--identity", target.clientKeyPath, "--known-hosts", knownHosts, "-F", "/dev/null",
        ]
        let outcome = await InProcessRWS.run(["exec"] + flags + ["--", "echo through the jump; exit 4"], home: home)
        #expect(outcome.stdout == "through the jump\n")
        #expect(outcome.status == 4)
        #expect(try await jump.waitForConnectionProcesses(0) == 0, "rws exited: the jump connection is gone too")
    }

    @Test(arguments: ServerKind.allCases)
    func aProxyJumpLineInTheSSHConfigIsFollowedAndShown(kind: ServerKind) async throws {
        let target = try SharedTestServer.get(kind)
        let (jump, knownHosts) = try jumpHost(for: target)
        defer { jump.stop() }
        let config = """
            Host target
              HostName 127.0.0.1
              Port \(target.port)
              ProxyJump bastion
            Host bastion
              HostName 127.0.0.1
              Port \(jump.port)
            Host *
              User \(target.user)
              IdentityFile \(target.clientKeyPath)
              UserKnownHostsFile \(knownHosts)
            """
        try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true)
        try config.write(toFile: home + "/.ssh/config", atomically: true, encoding: .utf8)

        let shown = await InProcessRWS.run(["config", "show", "--host", "target"], home: home)
        #expect(shown.status == 0)
        #expect(shown.stdout.split(separator: "\n").contains("proxyjump bastion"))

        let outcome = await InProcessRWS.run(["exec", "--host", "target", "--", "echo via config"], home: home)
        #expect(outcome.stderr == "")
        #expect(outcome.stdout == "via config\n")
        #expect(outcome.status == 0)

        // Stopping the jump host proves the path went through it: now the target cannot be reached.
        jump.stop()
        let failed = await InProcessRWS.run(["exec", "--host", "target", "--", "true"], home: home)
        #expect(failed.status == 255)
        #expect(failed.stderr.contains("port \(jump.port)"))
    }
}
