import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// Persistent shells keep their programs and screen on the box across dropped links.
@Suite(.timeLimit(.minutes(2))) struct PersistentShellTests {
    private func uniqueName() -> String { "t\(UUID().uuidString.prefix(8).lowercased())" }

    @Test(arguments: ServerKind.allCases, PersistentShell.Multiplexer.allCases)
    func aProgramOutlivesTheDroppedLinkAndItsScreenComesBack(kind: ServerKind, multiplexer: PersistentShell.Multiplexer) async throws {
        let server = try SharedTestServer.get(kind)
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let name = uniqueName(), seconds = RemoteProcesses.uniqueSeconds()
        let first = try await SSHConnection.connect(try server.configuration(through: proxy))
        let shell = try await first.openPersistentShell(named: name, multiplexer: multiplexer)
        let transcript = ShellTranscript(shell)
        try await shell.send("echo mark-$((6*7)); sleep \(seconds)\n")
        _ = try await transcript.wait(for: "mark-42", within: .seconds(10))
        try await RemoteProcesses.waitUntil { try !RemoteProcesses.matching("sleep \(seconds)").isEmpty }
        proxy.cutAll()  // the laptop closed
        _ = try? await transcript.waitForEnd(within: .seconds(10))
        #expect(try !RemoteProcesses.matching("sleep \(seconds)").isEmpty, "the program died with the link")

        _ = try await server.withConnection { connection in
            #expect(try await connection.listPersistentShells().contains { $0.name == name && $0.multiplexer == multiplexer })
            let again = try await connection.openPersistentShell(named: name, multiplexer: multiplexer)
            // Attaching redraws the screen: what the program printed before the drop is back.
            _ = try await ShellTranscript(again).wait(for: "mark-42", within: .seconds(10))
            try await again.close()
            #expect(try !RemoteProcesses.matching("sleep \(seconds)").isEmpty, "closing the client ended the session")
            try await connection.killPersistentShell(named: name)
            try await RemoteProcesses.waitUntil { try RemoteProcesses.matching("sleep \(seconds)").isEmpty }
            #expect(try await !connection.listPersistentShells().contains { $0.name == name })
        }
    }

    @Test func killingAnUnknownPersistentShellSaysSo() async throws {
        _ = try await SharedTestServer.get().withConnection { connection in
            await #expect(throws: SSHError.invalidArgument("no persistent shell named nosuchshell on the box")) {
                try await connection.killPersistentShell(named: "nosuchshell")
            }
        }
    }

    @Test(arguments: ["", "a:b", "a.b", "1abc", "semi;colon", String(repeating: "x", count: 65)])
    func namesThatTmuxOrScreenWouldMisreadAreRefusedBeforeAnythingRuns(name: String) async throws {
        _ = try await SharedTestServer.get().withConnection { connection in
            let before = connection.channelsOpened
            await #expect(throws: SSHError.self) { _ = try await connection.openPersistentShell(named: name) }
            #expect(connection.channelsOpened == before)
        }
    }

    @Test func aBoxWithNeitherTmuxNorScreenGetsAClearError() async throws {
        let server = try TestSSHServer(.init(extraConfig: ["SetEnv PATH=/rws-no-such-dir HOME=/rws-no-such-home SHLVL=1"]))
        defer { server.stop() }
        _ = try await server.withConnection { connection in
            await #expect(throws: SSHError.persistentShellUnavailable(host: "127.0.0.1")) {
                _ = try await connection.openPersistentShell(named: "work")
            }
        }
    }
}
