import Foundation
import Platform
import RWSTestSupport
import SSHClient
import Testing

@Suite struct ConnectionLossTests {
    @Test(arguments: ServerKind.allCases)
    func killingTheServerFailsPendingCommandsPromptly(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        let connection = try await server.connect()
        let pending = (0..<3).map { _ in Task { try await connection.run("sleep 30") } }
        let streaming = try connection.stream("sleep 30")
        try await Task.sleep(for: .milliseconds(300))
        let start = ContinuousClock.now
        server.signalAll(SIGKILL)
        for task in pending {
            await #expect(throws: SSHError.self) { try await task.value }
        }
        await #expect(throws: SSHError.self) { for try await _ in streaming.output {} }
        #expect(ContinuousClock.now - start < .seconds(3))
        do {
            _ = try await connection.run("true")
            Issue.record("a lost connection accepted a command")
        } catch let error as SSHError {
            guard case .connectionLost = error else {
                Issue.record("got \(error)")
                return
            }
        }
        await connection.close()
    }

    @Test(arguments: ServerKind.allCases)
    func anIdleConnectionNoticesAResetLinkThoughTheServerSentBytesNobodyRead(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let connection = try await SSHConnection.connect(try server.configuration(through: proxy))
        // Idle: what the server sends unasked after the login (OpenSSH announces its host keys)
        // sits unread, as no operation reads. The I/O thread spun on it, unaware of the reset.
        try await Task.sleep(for: .milliseconds(500))
        proxy.cutAll()
        #expect(try await Eventually.holds(within: .seconds(5)) { connection.isClosed }, "the loss went unnoticed")
        await connection.close()
    }

    @Test(arguments: ServerKind.allCases)
    func aServerThatStopsAnsweringIsDetectedByKeepalive(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        let connection = try await server.connect(deadPeerTimeout: .seconds(3))
        let pending = Task { try await connection.run("sleep 60") }
        try await Task.sleep(for: .milliseconds(300))
        let start = ContinuousClock.now
        server.signalAll(SIGSTOP)  // alive but silent, like a vanished network
        do {
            _ = try await pending.value
            Issue.record("the command finished on a frozen server")
        } catch let error as SSHError {
            guard case .connectionLost(let reason) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(reason.contains("did not answer"))
        }
        #expect(ContinuousClock.now - start < .seconds(8))
        server.signalAll(SIGCONT)
        await connection.close()
    }
}
