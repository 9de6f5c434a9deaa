import Foundation
import RWSTestSupport
import SSHClient
import Synchronization
import Testing

/// The core paths of the SSHClient library against three SSH implementations: OpenSSH, dropbear
/// and asyncssh (a server nobody on the project wrote, `scripts/lib/asyncssh_server.py`), so that
/// what these tests show is rws's behaviour and not one server's habit. Where the servers differ,
/// the test asserts the difference and names it (docs/servers.md lists them).
@Suite(.timeLimit(.minutes(2))) struct ThirdServerTests {
    // MARK: Commands

    @Test(arguments: ServerKind.withThirdImplementation)
    func aCommandsOutputAndExitStatusComeBack(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            let result = try await connection.run("printf 'to stdout\\n'; printf 'to stderr\\n' >&2; exit 3")
            #expect(result.stdoutText == "to stdout\n")
            #expect(result.stderrText == "to stderr\n")
            #expect(result.status == .exited(3))
            let fed = try await connection.run("tr a-z A-Z", input: Array("fed through stdin".utf8))
            #expect(fed.stdoutText == "FED THROUGH STDIN")
            let killed = try await connection.run("kill -TERM $$")
            #expect(killed.status == .signaled("TERM"))
        }
    }

    @Test(arguments: ServerKind.withThirdImplementation)
    func commandsRunInTheSandboxHomeWithTheirOwnSession(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let output = try await server.withConnection { connection in
            try await connection.run(#"echo "$HOME"; ps -o pid=,pgid=,sid= -p $$"#).stdoutText
        }
        let lines = output.split(separator: "\n")
        #expect(lines.first.map(String.init) == server.remoteHome)
        // The command's shell leads its own session on every server (on dropbear after setsid).
        let ids = lines.dropFirst().first?.split(separator: " ") ?? []
        #expect(ids.count == 3 && ids[0] == ids[1] && ids[1] == ids[2], "\(output)")
    }

    // MARK: Terminals

    @Test(arguments: ServerKind.withThirdImplementation)
    func ctrlCInterruptsASleepOnTheTerminal(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            let session = try await PromptedShell.open(connection)
            try await session.shell.send("printf 'sle''eping\\n'; sleep 100\r")
            try await session.transcript.wait(for: "sleeping\r\n")
            try await session.shell.send(.ctrl("c"))
            // What is asserted is that Ctrl+C ends the sleep, not how fast: once, in the main lane
            // of a loaded CI machine, the prompt took longer than 5 s on two servers at once.
            try await session.transcript.wait(for: PromptedShell.prompt, within: .seconds(30))
            #expect(try await session.run("echo $?").contains("130"))
            try await session.shell.close()
        }
    }

    @Test(arguments: ServerKind.withThirdImplementation)
    func tabAndTheUpArrowReachReadline(kind: ServerKind) async throws {
        let folder = "third-\(UUID().uuidString.prefix(8))"
        try await SharedTestServer.get(kind).withConnection { connection in
            _ = try await connection.run("mkdir -p \(folder) && echo completed-content > \(folder)/unique-file-for-tab.txt")
            let session = try await PromptedShell.open(connection)
            try await session.run("cd \(folder)")
            try await session.shell.send("cat uniq")
            try await session.shell.send(.tab)
            try await session.transcript.wait(for: "ue-file-for-tab.txt")
            try await session.shell.send(.enter)
            try await session.transcript.wait(for: "\r\ncompleted-content\r\n")
            try await session.transcript.wait(for: PromptedShell.prompt)
            // Only running the recalled line prints the file again.
            try await session.shell.send(.up)
            try await session.shell.send(.enter)
            let second = String(decoding: try await session.transcript.wait(for: PromptedShell.prompt), as: UTF8.self)
            #expect(second.contains("completed-content\r\n"), "\(second)")
            try await session.shell.close()
        }
    }

    @Test(arguments: ServerKind.withThirdImplementation)
    func theTerminalHasTheSizeTypeAndModesAskedFor(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            let session = try await PromptedShell.open(connection, columns: 100, rows: 30)
            try await session.shell.send("stty size; echo \"$TERM\"\r")
            try await session.transcript.wait(for: "\r\n30 100\r\nxterm-256color\r\n")
            try await session.transcript.wait(for: PromptedShell.prompt)
            // TerminalModes.interactive turns flow control off and UTF-8 input on (Linux's defaults: on, off).
            try await session.shell.send("stty -a | tr ' ' '\\n' | grep -x -e -ixon -e iutf8 | tr '\\n' ' '; echo\r")
            try await session.transcript.wait(for: "\r\n-ixon iutf8 \r\n")
            try await session.transcript.wait(for: PromptedShell.prompt)
            try await session.shell.close()
        }
    }

    // MARK: Files

    @Test(arguments: ServerKind.withThirdImplementation)
    func sftpListsReadsAndWrites(kind: ServerKind) async throws {
        let folder = try FileFixtures.scratchDirectory("third-sftp")
        try FileFixtures.makeFile(folder + "/present.txt", Data("was here\n".utf8))
        try FileManager.default.createDirectory(atPath: folder + "/inner", withIntermediateDirectories: false)
        let written = TestBytes.make(300_000, seed: 31)
        try await SharedTestServer.get(kind).withConnection(fileTransport: .sftp) { connection in
            #expect(try await connection.activeFileTransport() == .sftp)
            try await connection.writeFile(folder + "/written.bin", contents: written)
            let entries = try await connection.listDirectory(folder).sorted { $0.name < $1.name }
            #expect(entries.map(\.name) == ["inner", "present.txt", "written.bin"])
            #expect(entries.map(\.kind) == [.directory, .file, .file])
            #expect(entries.last?.size == UInt64(written.count))
            #expect(try await connection.readFile(folder + "/present.txt") == Array("was here\n".utf8))
            #expect(try await connection.readFile(folder + "/written.bin") == written)
        }
        #expect(FileManager.default.contents(atPath: folder + "/written.bin") == Data(written))
    }

    // MARK: Forwarding

    @Test(arguments: ServerKind.withThirdImplementation)
    func aLocalForwardCarriesBytesToAPortOnTheBox(kind: ServerKind) async throws {
        let echo = try EchoServer()
        defer { echo.stop() }
        try await SharedTestServer.get(kind).withConnection { connection in
            let forward = try connection.forwardLocal(to: echo.port)
            defer { forward.close() }
            let payload = TestBytes.make(200_000, seed: 32)
            let back = try await Blocking.onThread { try EchoServer.roundTrip(port: forward.localPort, payload) }
            #expect(back == payload)
            #expect(forward.acceptedConnections == 1)
        }
    }

    @Test(arguments: ServerKind.withThirdImplementation)
    func aRemoteForwardOnAChosenPortCarriesBytesFromTheBoxToHere(kind: ServerKind) async throws {
        let echo = try EchoServer()
        defer { echo.stop() }
        let unused = try EchoServer()
        unused.stop()  // its port is now free on the box, which is this machine
        try await SharedTestServer.get(kind).withConnection { connection in
            let forward = try await connection.forwardRemote(port: unused.port, to: echo.port)
            defer { forward.close() }
            #expect(forward.remotePort == unused.port)
            let payload = TestBytes.make(200_000, seed: 33)
            let back = try await Blocking.onThread { try EchoServer.roundTrip(port: forward.remotePort, payload) }
            #expect(back == payload)
            // And a program on the box, through a command channel beside the listener.
            let script = #"exec 3<>"/dev/tcp/127.0.0.1/$1"; printf 'from the box' >&3; head -c 12 <&3"#
            let result = try await connection.run(try ShellQuoting.commandLine(["bash", "-c", script, "bash", String(forward.remotePort)]))
            #expect(result.stdoutText == "from the box", "\(result.stderrText)")
            #expect(forward.acceptedConnections == 2)
        }
    }

    /// A difference, asyncssh's: asked for port 0 (any free port), asyncssh 2.10 listens and
    /// answers with the port it took, but opens each connection's channel naming port 0 where
    /// RFC 4254 (7.2) has the port connected. libssh2 finds a channel's listener by that port,
    /// finds none, and refuses the channel: the connection on the box is closed unanswered.
    @Test(arguments: ServerKind.withThirdImplementation)
    func aRemoteForwardOnAnyFreePortCarriesBytesWhereTheServerNamesThePortItTook(kind: ServerKind) async throws {
        let echo = try EchoServer()
        defer { echo.stop() }
        try await SharedTestServer.get(kind).withConnection { connection in
            let forward = try await connection.forwardRemote(to: echo.port)
            defer { forward.close() }
            #expect(forward.remotePort > 0 && forward.remotePort != echo.port)
            let payload = Array("through any free port".utf8)
            let back = try? await Blocking.onThread { try EchoServer.roundTrip(port: forward.remotePort, payload) }
            if kind == .asyncssh {
                #expect(back?.isEmpty ?? true)
                #expect(forward.acceptedConnections == 0)
            } else {
                #expect(back == payload)
                #expect(forward.acceptedConnections == 1)
            }
        }
    }

    // MARK: Host keys

    private func scratchFile(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("rws-third-\(UUID().uuidString.prefix(8))-\(name)").path
    }

    @Test(arguments: ServerKind.withThirdImplementation)
    func strictCheckingRefusesAnUnknownHostWithItsFingerprint(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let listed = try Shell.run("/usr/bin/ssh-keygen", ["-l", "-E", "sha256", "-f", server.directory.path + "/host_ed25519.pub"])
        var configuration = server.configuration()
        configuration.knownHostsFile = scratchFile("empty")
        do {
            await (try await SSHConnection.connect(configuration)).close()
            Issue.record("an unknown host was accepted in strict mode")
        } catch let SSHError.hostKeyUnknown(_, _, keyType, fingerprint, _) {
            #expect(keyType == "ssh-ed25519")
            #expect(fingerprint == String(listed.split(separator: " ")[1]))
        }
    }

    @Test(arguments: ServerKind.withThirdImplementation)
    func acceptNewRecordsTheKeyWhichStrictCheckingThenTrusts(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        var configuration = server.configuration()
        configuration.knownHostsFile = scratchFile("known_hosts")
        configuration.hostKeyPolicy = .acceptNew
        await (try await SSHConnection.connect(configuration)).close()
        let found = try Shell.run("/usr/bin/ssh-keygen", ["-F", "[127.0.0.1]:\(server.port)", "-f", configuration.knownHostsFile])
        #expect(found.contains("ssh-ed25519"))
        configuration.hostKeyPolicy = .strict
        await (try await SSHConnection.connect(configuration)).close()
    }

    @Test(arguments: ServerKind.withThirdImplementation)
    func aChangedHostKeyIsRefusedEvenUnderAcceptNew(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let otherKey = scratchFile("other")
        try Shell.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", otherKey])
        let otherPublic = try String(contentsOfFile: otherKey + ".pub", encoding: .utf8).split(separator: " ").prefix(2)
            .joined(separator: " ")
        var configuration = server.configuration()
        configuration.knownHostsFile = scratchFile("changed")
        try "[127.0.0.1]:\(server.port) \(otherPublic)\n".write(toFile: configuration.knownHostsFile, atomically: true, encoding: .utf8)
        configuration.hostKeyPolicy = .acceptNew
        do {
            await (try await SSHConnection.connect(configuration)).close()
            Issue.record("a changed host key was accepted")
        } catch let error as SSHError {
            guard case .hostKeyChanged = error else { throw error }
            #expect(error.description.contains("HOST KEY CHANGED"))
        }
        let contents = try String(contentsOfFile: configuration.knownHostsFile, encoding: .utf8)
        #expect(contents.split(separator: "\n").count == 1, "the file must not gain the new key")
    }

    // MARK: Logins

    /// OpenSSH and dropbear check the system's password database, whose passwords the tests do
    /// not know: only asyncssh has a password of its own, so only there is the right one tried.
    @Test(arguments: ServerKind.withThirdImplementation)
    func passwordLogins(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind, .init(passwordAuthentication: true))
        defer { server.stop() }
        do {
            try await server.connectAndClose(authenticating: [.password("certainly-not-the-password")])
            Issue.record("a wrong password was accepted")
        } catch let SSHError.authenticationFailed(_, _, tried, allowed) {
            #expect(tried == ["password"])
            #expect(allowed.contains("password"))
        }
        if kind == .asyncssh {
            let password = try #require(server.testPassword)
            try await server.connectAndClose(authenticating: [.password(password)])
        } else {
            #expect(server.testPassword == nil)
        }
    }

    /// A difference: asyncssh offers keyboard-interactive (one hidden "Password: " prompt); the
    /// test sshd runs without PAM, where OpenSSH has no keyboard-interactive to offer, and
    /// dropbear has none at all. Each refusal must say what the server does allow.
    @Test(arguments: ServerKind.withThirdImplementation)
    func keyboardInteractiveLogins(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind, .init(passwordAuthentication: true))
        defer { server.stop() }
        let prompts = PromptLog()
        let answer = server.testPassword ?? "no-password-to-give"
        let method = AuthenticationMethod.keyboardInteractive { challenge in
            prompts.record(challenge.prompts.map { "\($0.text)|echo=\($0.echo)" })
            return challenge.prompts.map { _ in answer }
        }
        if kind == .asyncssh {
            try await server.connectAndClose(authenticating: [method])
            #expect(prompts.seen == ["Password: |echo=false"])
        } else {
            do {
                try await server.connectAndClose(authenticating: [method])
                Issue.record("\(kind) was expected to offer no keyboard-interactive login")
            } catch let SSHError.authenticationFailed(_, _, tried, allowed) {
                #expect(tried == ["keyboard-interactive"])
                #expect(!allowed.contains("keyboard-interactive") && allowed.contains("password"), "\(allowed)")
            }
            #expect(prompts.seen.isEmpty)
        }
    }
}

/// The prompts a keyboard-interactive responder was shown, from the thread libssh2 asks on.
private final class PromptLog: Sendable {
    private let prompts = Mutex<[String]>([])

    func record(_ shown: [String]) { prompts.withLock { $0 += shown } }

    var seen: [String] { prompts.withLock { $0 } }
}
