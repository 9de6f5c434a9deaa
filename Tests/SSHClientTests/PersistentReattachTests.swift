import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// A reconnecting connection comes back to its persistent shell after the link drops: the screen
/// is redrawn and keys typed during the redraw arrive (four rounds: the path has timing in it).
@Suite(.timeLimit(.minutes(2))) struct PersistentReattachTests {
    @Test(arguments: 0..<4)
    func aReconnectingConnectionReattachesToItsPersistentShellAndTakesKeysTypedDuringTheRedraw(round: Int) async throws {
        let server = try SharedTestServer.get()
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        var configuration = try server.configuration(through: proxy)
        configuration.reconnect = ReconnectPolicy(waitForConnection: .seconds(300))
        configuration.keepaliveInterval = .seconds(5)
        let connection = try await SSHConnection.connect(configuration)
        let name = "r\(UUID().uuidString.prefix(8).lowercased())"
        // A side-by-side run once hung here past the time limit: each step now says where it stopped.
        let channels: @Sendable () async -> String = { await connection.channelDiagnostics() }
        let first = try await Bounded.step("opening the shell", within: .seconds(30), context: channels) {
            try await connection.openPersistentShell(named: name, ShellConfiguration(columns: 120, rows: 40))
        }
        let transcript = ShellTranscript(first)
        try await Bounded.step(
            "typing the first line", within: .seconds(10),
            context: { await "\(channels()); shown: \(transcript.text.prefix(700).debugDescription)" }
        ) {
            try await first.send("echo mark-$((6*7))\n")
        }
        _ = try await transcript.wait(for: "mark-42", within: .seconds(10))
        proxy.cutAll()
        _ = try? await transcript.waitForEnd(within: .seconds(10))
        let again = try await Bounded.step("reattaching", within: .seconds(30), context: channels) {
            try await connection.openPersistentShell(named: name, ShellConfiguration(columns: 120, rows: 40))
        }
        let second = ShellTranscript(again)
        // Typed at once, while the screen is still being redrawn.
        try await Bounded.step(
            "typing during the redraw", within: .seconds(10),
            context: { await "\(channels()); shown: \(second.text.suffix(2000).debugDescription)" }
        ) {
            for byte in "echo back-$((1+1))\n".utf8 { try await again.send([byte]) }
        }
        _ = try await second.wait(for: "mark-42", within: .seconds(10))
        _ = try await second.wait(for: "back-2", within: .seconds(10))
        try await Bounded.step("ending the shell", within: .seconds(30), context: channels) {
            try await connection.killPersistentShell(named: name)
        }
        #expect(connection.statistics.stalledPolls == 0, "\(connection.statistics)")
        await connection.close()
    }
}
