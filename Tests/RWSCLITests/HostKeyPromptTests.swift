import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// `StrictHostKeyChecking ask`, OpenSSH's default and rws's: on a terminal rws shows a new host's
/// fingerprint and asks as `ssh` does (yes, no or the fingerprint); without a terminal it refuses.
/// The decision has its own wait: a person reading the fingerprint does not run into the connect timeout.
@Suite(.serialized, .timeLimit(.minutes(1))) struct HostKeyPromptTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-hostkey-\(UUID().uuidString.prefix(8))").path

    /// The server's flags with a known_hosts of this test's own, empty at first.
    private func flags(_ server: TestSSHServer) throws -> (flags: [String], knownHosts: String) {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let knownHosts = home + "/known_hosts"
        if !FileManager.default.fileExists(atPath: knownHosts) { try Data().write(to: URL(fileURLWithPath: knownHosts)) }
        return (server.rwsFlags.map { $0 == server.knownHostsPath ? knownHosts : $0 }, knownHosts)
    }

    @Test(arguments: ServerKind.allCases)
    func aNewHostIsAskedAboutOnATerminalAndRecordedOnlyAfterYes(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let (flags, knownHosts) = try flags(server)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let tmux = try Tmux.start(home: home)
        defer { tmux.stop() }
        try await tmux.waitForLastLine(Tmux.localPrompt)
        // --connect-timeout 2: the question outlasts it, and the connection still goes through.
        let command = try ShellQuoting.commandLine([RWSBinary.path, "exec"] + flags + ["--connect-timeout", "2", "--", "echo connected"])

        try tmux.type(command + "; echo rws-exit=$?")
        let question = "Are you sure you want to continue connecting (yes/no/[fingerprint])?"
        var screen = try await tmux.wait(for: question, within: .seconds(20))
        #expect(screen.contains("The authenticity of host '[127.0.0.1]:\(server.port)' can't be established."), "\(screen)")
        #expect(screen.contains("ED25519 key fingerprint is SHA256:"), "\(screen)")
        try tmux.type("maybe")
        try await tmux.wait(for: "Please type 'yes', 'no' or the fingerprint:")
        try tmux.type("no")
        screen = try await tmux.wait(for: "rws-exit=255")
        #expect(try String(contentsOfFile: knownHosts, encoding: .utf8).isEmpty)

        try tmux.type("clear; " + command + "; echo rws-exit=$?")
        try await tmux.wait(for: question, within: .seconds(20))
        try await Task.sleep(for: .seconds(3))  // longer than the connect timeout
        try tmux.type("yes")
        screen = try await tmux.wait(for: "rws-exit=0", within: .seconds(20))
        #expect(screen.contains("connected\nrws-exit=0"), "\(screen)")
        #expect(try String(contentsOfFile: knownHosts, encoding: .utf8).hasPrefix("[127.0.0.1]:\(server.port) ssh-ed25519 "))
    }

    @Test(arguments: ServerKind.allCases)
    func withoutATerminalANewHostIsRefusedAndSaysHowToAcceptIt(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let (flags, knownHosts) = try flags(server)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let outcome = try await RWSBinary.run(["exec"] + flags + ["--", "echo connected"], home: home)
        #expect(outcome.status == 255, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("is not known") && outcome.stderr.contains("--accept-new-host-key"), "\(outcome.stderr)")
        #expect(try String(contentsOfFile: knownHosts, encoding: .utf8).isEmpty)
    }
}
