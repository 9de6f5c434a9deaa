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
        try await RemoteProcesses.waitUntil { !RemoteProcesses.matching("sleep \(seconds)").isEmpty }
        proxy.cutAll()  // the laptop closed
        _ = try? await transcript.waitForEnd(within: .seconds(10))
        #expect(!RemoteProcesses.matching("sleep \(seconds)").isEmpty, "the program died with the link")

        _ = try await server.withConnection { connection in
            #expect(try await connection.listPersistentShells().contains { $0.name == name && $0.multiplexer == multiplexer })
            let again = try await connection.openPersistentShell(named: name, multiplexer: multiplexer)
            // Attaching redraws the screen: what the program printed before the drop is back.
            _ = try await ShellTranscript(again).wait(for: "mark-42", within: .seconds(10))
            try await again.close()
            #expect(!RemoteProcesses.matching("sleep \(seconds)").isEmpty, "closing the client ended the session")
            try await connection.killPersistentShell(named: name)
            try await RemoteProcesses.waitUntil { RemoteProcesses.matching("sleep \(seconds)").isEmpty }
            #expect(try await !connection.listPersistentShells().contains { $0.name == name })
        }
    }

    @Test(arguments: ServerKind.allCases, PersistentShell.Multiplexer.allCases)
    func aSessionStartsWithItsCommandAndTakingItOverDetachesTheOtherTerminal(
        kind: ServerKind, multiplexer: PersistentShell.Multiplexer
    ) async throws {
        let server = try SharedTestServer.get(kind)
        let name = uniqueName(), seconds = RemoteProcesses.uniqueSeconds()
        let first = try await SSHConnection.connect(server.configuration())
        // The command runs with this login's HOME, even in a tmux server another login started.
        let command = "echo \"started-$((2*3)) home=$HOME\"; exec sleep \(seconds)"
        let shell = try await first.openPersistentShell(
            named: name, multiplexer: multiplexer, ShellConfiguration(columns: 200, command: command))
        let transcript = ShellTranscript(shell)
        _ = try await transcript.wait(for: "started-6 home=\(server.remoteHome)", within: .seconds(10))
        try await RemoteProcesses.waitUntil { !RemoteProcesses.matching("sleep \(seconds)").isEmpty }

        _ = try await server.withConnection { connection in
            let taken = try await connection.openPersistentShell(named: name, opening: .takeOver)
            _ = try await ShellTranscript(taken).wait(for: "started-6", within: .seconds(10))
            // The first terminal is detached: its client ends, the program runs on.
            _ = try await transcript.waitForEnd(within: .seconds(10))
            #expect(!RemoteProcesses.matching("sleep \(seconds)").isEmpty)
            try await taken.close()
            try await connection.killPersistentShell(named: name)
            // A waiting-lane run saw the program still there 5 s after the kill: what is left is said.
            try await RemoteProcesses.waitUntil(
                within: .seconds(20), state: { RemoteProcesses.matching("sleep \(seconds)").joined(separator: "; ") }
            ) { RemoteProcesses.matching("sleep \(seconds)").isEmpty }
            await #expect(throws: SSHError.persistentShellNotFound(name: name, host: "127.0.0.1")) {
                _ = try await connection.openPersistentShell(named: name, opening: .takeOver)
            }
        }
        await first.close()
    }

    @Test(arguments: ServerKind.allCases, PersistentShell.Multiplexer.allCases)
    func aReattachJoinsTheOtherTerminalAndNeverStartsAnEndedSessionAfresh(
        kind: ServerKind, multiplexer: PersistentShell.Multiplexer
    ) async throws {
        let server = try SharedTestServer.get(kind)
        let name = uniqueName()
        let first = try await SSHConnection.connect(server.configuration())
        // A side-by-side run once hung in this test past the time limit: the steps that wait on
        // a channel say where they stopped, and where each channel stood.
        let firstChannels: @Sendable () async -> String = { await first.channelDiagnostics() }
        let shell = try await Bounded.step("opening the shell", within: .seconds(30), context: firstChannels) {
            try await first.openPersistentShell(named: name, multiplexer: multiplexer)
        }
        let transcript = ShellTranscript(shell)
        try await Bounded.step("typing in the first terminal", within: .seconds(10), context: firstChannels) {
            try await shell.send("echo one-$((1+1))\n")
        }
        _ = try await transcript.wait(for: "one-2", within: .seconds(10))

        _ = try await server.withConnection { connection in
            let channels: @Sendable () async -> String = { await connection.channelDiagnostics() }
            let joined = try await Bounded.step("joining", within: .seconds(30), context: channels) {
                try await connection.openPersistentShell(named: name, opening: .attachOnly)
            }
            _ = try await ShellTranscript(joined).wait(for: "one-2", within: .seconds(10))
            // Both terminals show the same session: what is typed in one appears in the other.
            try await Bounded.step("typing in the joined terminal", within: .seconds(10), context: channels) {
                try await joined.send("echo two-$((2+2))\n")
            }
            _ = try await transcript.wait(for: "two-4", within: .seconds(10))
            try await joined.close()
            try await connection.killPersistentShell(named: name)
            await #expect(throws: SSHError.persistentShellNotFound(name: name, host: "127.0.0.1")) {
                _ = try await connection.openPersistentShell(named: name, opening: .attachOnly)
            }
            #expect(try await !connection.listPersistentShells().contains { $0.name == name })
        }
        await first.close()
    }

    /// The user's own tmux sessions on the box are theirs: only the ones rws opened are listed
    /// (and a session that ended leaves no trace in the listing).
    @Test(arguments: ServerKind.allCases)
    func onlyTheSessionsRwsOpenedAreListed(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let ours = uniqueName(), theirs = uniqueName()
        try await server.withConnection { connection in
            _ = try await connection.run("tmux new-session -d -s \(theirs) 'sleep 60'")
            let shell = try await connection.openPersistentShell(named: ours, multiplexer: .tmux)
            try await shell.send("echo ready-$((1+1))\n")
            _ = try await ShellTranscript(shell).wait(for: "ready-2", within: .seconds(10))
            try await shell.close()
            let listed = try await connection.listPersistentShells().map(\.name)
            #expect(listed.contains(ours) && !listed.contains(theirs), "\(listed)")
            try await connection.killPersistentShell(named: ours)
            try await connection.killPersistentShell(named: theirs)
            #expect(try await !connection.listPersistentShells().contains { [ours, theirs].contains($0.name) })
        }
    }

    /// A listing running while another client opens a session must not take that session's
    /// marker (written just before tmux makes the session) for a leftover: only markers a day old
    /// whose session is gone are removed.
    @Test(arguments: ServerKind.allCases)
    func aListingKeepsAFreshMarkerWithoutItsSessionAndRemovesADayOldOne(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let starting = uniqueName(), ended = uniqueName()
        let folder = server.remoteHome + "/.cache/rws/persistent"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: "\(folder)/\(starting).rws", contents: Data()))
        #expect(FileManager.default.createFile(atPath: "\(folder)/\(ended).rws", contents: Data()))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -2 * 86_400)], ofItemAtPath: "\(folder)/\(ended).rws")
        defer { try? FileManager.default.removeItem(atPath: "\(folder)/\(starting).rws") }
        let listed = try await server.withConnection { try await $0.listPersistentShells().map(\.name) }
        #expect(!listed.contains(starting) && !listed.contains(ended), "\(listed)")
        #expect(FileManager.default.fileExists(atPath: "\(folder)/\(starting).rws"), "a fresh marker was taken for a leftover")
        #expect(!FileManager.default.fileExists(atPath: "\(folder)/\(ended).rws"), "a day-old leftover marker stayed")
    }

    /// tmux discards its terminal's unread output as it starts: where the server had not read
    /// the PID line yet (a busy box), that line was lost and rws held the keys typed for good.
    @Test(arguments: ServerKind.allCases)
    func keysReachAPersistentShellWhoseServerReadsTheTerminalLate(kind: ServerKind) async throws {
        let server = try TestSSHServer.readingTerminalsLate(kind)
        defer { server.stop() }
        let name = uniqueName()
        let connection = try await server.connect()
        let channels: @Sendable () async -> String = { await connection.channelDiagnostics() }
        let shell = try await Bounded.step("opening the shell", within: .seconds(30), context: channels) {
            try await connection.openPersistentShell(named: name, multiplexer: .tmux)
        }
        let transcript = ShellTranscript(shell)
        try await Bounded.step("typing", within: .seconds(15), context: channels) { try await shell.send("echo typed-$((3*3))\n") }
        _ = try await transcript.wait(for: "typed-9", within: .seconds(10))
        // Every banner line arrived, and the newline that let tmux start was not shown.
        let banner = "127 of 128, to fill the terminal's buffer ........\r\n"
        #expect(transcript.text.contains(banner) && !transcript.text.contains(banner + "\r\n"), "\(transcript.text.prefix(300))")
        try await connection.killPersistentShell(named: name)
        await connection.close()
    }

    @Test(arguments: ServerKind.allCases)
    func killingAnUnknownPersistentShellSaysSo(kind: ServerKind) async throws {
        _ = try await SharedTestServer.get(kind).withConnection { connection in
            await #expect(throws: SSHError.persistentShellNotFound(name: "nosuchshell", host: "127.0.0.1")) {
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
