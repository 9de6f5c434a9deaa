import Foundation
import Platform
import RWSTestSupport
import Testing

@testable import SSHClient

/// What differs between OpenSSH sshd and dropbear as rws meets them, each as docs/servers.md
/// states it. The differences the other suites meet are asserted there (RSA keys in
/// AuthenticationTests, the channel race in ConcurrencyTests, a missing sftp-server in FileErrorTests).
@Suite struct ServerDifferenceTests {
    @Test(arguments: ServerKind.allCases)
    func theCommandEnvironmentDiffersAsDocumented(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let output = try await server.withConnection { try await $0.run("env; echo pwd=$PWD").stdoutText }
        var environment: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { environment[parts[0]] = parts[1] }
        }
        #expect(environment["HOME"] == server.remoteHome)
        #expect(environment["USER"] == server.user && environment["SSH_CONNECTION"] != nil)
        let passwdHome = try #require(SystemCall.passwdHome)
        switch kind {
        case .openssh:
            // sshd starts in the passwd home; the test sshd only sets $HOME (SetEnv).
            #expect(environment["pwd"] == passwdHome)
            #expect(environment["MAIL"] != nil)
            #expect(environment["SSH_PUBKEYINFO"] == nil && environment["LANG"] == nil)
        case .dropbear:
            // The test dropbear reads a passwd whose home is the sandbox, so it starts there.
            #expect(environment["pwd"] == server.remoteHome)
            #expect(environment["MAIL"] == nil)
            // The comment of the authorized key, and dropbear's own LANG, are passed on.
            #expect(environment["SSH_PUBKEYINFO"] == "rws-test")
            #expect(environment["LANG"] == ProcessInfo.processInfo.environment["LANG"])
        case .asyncssh:
            // The test server builds the environment itself (scripts/lib/asyncssh_server.py), starting in HOME.
            #expect(environment["pwd"] == server.remoteHome)
            #expect(environment["MAIL"] == nil)
            #expect(environment["SSH_PUBKEYINFO"] == nil && environment["LANG"] == nil)
        }
    }

    @Test(arguments: ServerKind.allCases)
    func onlyOpenSSHStartsACommandAsAProcessGroupLeaderSoDropbearCommandsGoThroughSetsid(kind: ServerKind) async throws {
        let output = try await SharedTestServer.get(kind).withConnection { connection in
            try await connection.run("ps -o pid=,pgid=,sid= -p $$; ps -o args= -p $$").stdoutText
        }
        let lines = output.split(separator: "\n")
        let ids = lines.first?.split(separator: " ") ?? []
        // Either way the command's shell ends up leading its own session (what stops rely on)...
        #expect(ids.count == 3 && ids[0] == ids[1] && ids[1] == ids[2], "\(output)")
        // ...on OpenSSH as started, on dropbear after StoppableCommand re-ran it through setsid.
        let arguments = lines.dropFirst().first.map(String.init) ?? ""
        switch kind {
        case .openssh, .asyncssh: #expect(arguments.contains("-c set -- "), "\(arguments)")
        case .dropbear: #expect(arguments.contains("-c echo rws-pid:$$; "), "\(arguments)")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func onlyDropbearClosesASixthUnauthenticatedConnectionFromOneAddress(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        let idle = try (0..<5).map { _ in try Self.openIdleSocket(port: server.port) }
        // Both servers start a process per accepted connection: once five run, all five count.
        // The server starts with none (a readiness check's connection would take one of dropbear's five).
        let fiveRun = { server.connectionProcesses.count >= 5 }
        try await RemoteProcesses.waitUntil(within: .seconds(20), state: { Self.describe(server) }, fiveRun)
        guard fiveRun() else { return idle.forEach(SystemCall.close) }
        do {
            await (try await server.connect()).close()
            #expect(kind == .openssh, "dropbear accepted a sixth unauthenticated connection")
        } catch SSHError.closedBeforeIdentification {
            #expect(kind == .dropbear, "\(kind) closed a sixth unauthenticated connection")
        }
        for fd in idle { SystemCall.close(fd) }
        try await RemoteProcesses.waitUntil { server.connectionProcesses.isEmpty }
        await (try await server.connect()).close()
    }

    @Test(arguments: ServerKind.allCases)
    func onlyWhereOverlappingCommandsAbortDoesACommandRunAfterAStopWaitForTheStopToEnd(kind: ServerKind) async throws {
        // A stop's script exits soon after it starts; on such a dropbear a channel opened
        // meanwhile could still wait for its command then, and the connection would end.
        let stubborn = RemoteProcesses.uniqueSeconds()
        let running = try await SharedTestServer.get(kind).withConnection(adjusting: { $0.terminationGracePeriod = .seconds(1) }) {
            (connection) async throws in
            let remote = try connection.stream("trap '' TERM HUP; echo started; sleep \(stubborn)")
            var iterator = remote.output.makeAsyncIterator()
            #expect(try await iterator.next() == .stdout(Array("started\n".utf8)))
            remote.cancel()
            // The sleep ignores TERM and HUP: the stop's script kills it after the 1 s grace period.
            return try await connection.run("ps -eo args= | grep -cx 'sleep \(stubborn)' || true").stdoutText
        }
        switch kind {
        case .openssh, .asyncssh: #expect(running == "1\n", "the command ran while the stop went on")
        case .dropbear: #expect(running == "0\n", "the command ran once the stop had ended")
        }
        // The close waits for the stop a bounded time (grace + 3 s; CloseReportTests) and, on a box
        // too busy to end it by then, returns: the kill script goes on there (nothing hangs up a
        // command without a terminal) and ends the sleep without us.
        #expect(try await Eventually.holds(within: .seconds(30)) { RemoteProcesses.matching("sleep \(stubborn)") == [] })
    }

    @Test(arguments: ServerKind.allCases)
    func commandsRunBackToBackWhileStopsGoOnLeaveTheConnectionUp(kind: ServerKind) async throws {
        // Each command's channel waits a moment for its command; a stop's script exits while one
        // of them does, sooner or later, unless rws keeps them apart on such a dropbear.
        let seconds = RemoteProcesses.uniqueSeconds()
        try await SharedTestServer.get(kind).withConnection { connection in
            for round in 0..<60 {
                let remote = try connection.stream("echo started; sleep \(seconds)")
                var iterator = remote.output.makeAsyncIterator()
                #expect(try await iterator.next() == .stdout(Array("started\n".utf8)))
                remote.cancel()
                for command in 0..<3 {
                    let result = try await connection.run("echo \(round).\(command)")
                    #expect(result.status.isSuccess && result.stdoutText == "\(round).\(command)\n", "\(result)")
                }
            }
        }
        #expect(RemoteProcesses.matching("sleep \(seconds)") == [])
    }

    @Test(arguments: ServerKind.allCases)
    func theServersIdentificationSaysWhichSoftwareAndWhetherOverlappingCommandsAbort(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let (identification, aborts) = try await server.withConnection { ($0.serverIdentification, $0.serverAbortsOnOverlappingCommands) }
        switch kind {
        case .openssh:
            #expect(identification.hasPrefix("SSH-2.0-OpenSSH_"), "\(identification)")
            #expect(!aborts)
        case .dropbear:
            // This machine's dropbear (2022.83, Debian bookworm) is one that aborts (docs/servers.md).
            #expect(identification.hasPrefix("SSH-2.0-dropbear_2022.83"), "\(identification)")
            #expect(aborts)
        case .asyncssh:
            #expect(identification.hasPrefix("SSH-2.0-AsyncSSH_2.10"), "\(identification)")
            #expect(!aborts)
        }
    }

    @Test func onlyDropbear2022Point82To2024Point85AbortOnOverlappingCommands() {
        let cases: [(String, Bool)] = [
            ("SSH-2.0-dropbear_2022.82", true), ("SSH-2.0-dropbear_2022.83", true), ("SSH-2.0-dropbear_2024.85", true),
            ("SSH-2.0-dropbear_2024.86", false), ("SSH-2.0-dropbear_2020.81", false), ("SSH-2.0-dropbear_2025.87", false),
            ("SSH-2.0-dropbear", false), ("SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3", false), ("", false),
        ]
        for (identification, aborts) in cases {
            #expect(SSHConnection.abortsOnOverlappingCommands(identification: identification) == aborts, "\(identification)")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func bothAnswerKeepalivesSoAQuietCommandOutlivesTheDeadPeerTimeout(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        // Keepalives go out once a second (libssh2 counts whole seconds): 3 s leaves room for one reply.
        let result = try await server.withConnection(deadPeerTimeout: .seconds(3)) { try await $0.run("sleep 5") }
        #expect(result.status == .exited(0))
    }

    /// The server's connection processes and the end of its log, for a failure message.
    private static func describe(_ server: TestSSHServer) -> String {
        let log = (try? String(contentsOfFile: server.logPath, encoding: .utf8)) ?? "(no log)"
        let tail = log.split(separator: "\n").suffix(12).joined(separator: "\n")
        return "processes \(server.connectionProcesses), log:\n\(tail)"
    }

    /// A TCP connection to `port` that never says a word (no SSH banner).
    private static func openIdleSocket(port: Int) throws -> Int32 {
        let address = SystemCall.loopback(port: port)
        let fd = try SystemCall.socket(for: address)
        do {
            guard try SystemCall.connect(fd, to: address) else { throw SystemCallError("connect", code: EINPROGRESS) }
        } catch {
            SystemCall.close(fd)
            throw error
        }
        return fd
    }
}
