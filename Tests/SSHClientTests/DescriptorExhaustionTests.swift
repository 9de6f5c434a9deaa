import Foundation
import RWSTestSupport
import SSHClient
import Synchronization
import Testing

/// Descriptors running out in the process while a connection lives, as in an app that used them
/// up but the one libdispatch needs (``DescriptorExhaustion``): the connection's reconnect cannot
/// open its wake-up pipe. It must neither crash nor give up while its wait lasts, say why in its
/// state, and come back once descriptors are free.
@Suite(.serialized, .timeLimit(.minutes(2))) struct DescriptorExhaustionTests {
    @Test func aReconnectWithoutDescriptorsSaysWhyKeepsTryingAndComesBackOnceSomeAreFree() async throws {
        let server = try SharedTestServer.get()
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        var configuration = try server.configuration(through: proxy, deadPeerTimeout: .seconds(3))
        configuration.reconnect = ReconnectPolicy(
            initialDelay: .milliseconds(200), maximumDelay: .seconds(1), jitter: 0, waitForConnection: .seconds(60))
        configuration.keepaliveInterval = .seconds(1)
        let connection = try await SSHConnection.connect(configuration)
        let seen = Mutex<[ConnectionState]>([])
        let watcher = Task { for await state in connection.states() { seen.withLock { $0.append(state) } } }
        #expect(try await Eventually.holds(within: .seconds(15)) { seen.withLock { $0 } == [.connected] })

        let exhaustion = try DescriptorExhaustion()
        defer { exhaustion.release() }
        #expect(exhaustion.count > 0)
        proxy.cutAll()
        // Several attempts while nothing is free: each fails for want of a descriptor.
        let retried = try await Eventually.holds(within: .seconds(20)) {
            seen.withLock { $0.filter { if case .connecting = $0 { true } else { false } }.count } >= 3
        }
        let during = seen.withLock { $0 }
        exhaustion.release()
        #expect(retried, "\(during)")
        #expect(!during.contains { if case .closed = $0 { true } else { false } }, "gave up: \(during)")
        let reasons = during.compactMap { state -> String? in if case .reconnecting(_, _, let reason) = state { reason } else { nil } }
        // Each failed attempt blames the descriptors, never the files it could not open (their permissions).
        #expect(reasons.count >= 3 && reasons.dropFirst().allSatisfy { $0.contains("no file descriptor is left") }, "\(reasons)")
        #expect(!reasons.contains { $0.contains("chmod") }, "\(reasons)")

        #expect(try await connection.run("echo back").stdoutText == "back\n")
        await connection.close()
        await watcher.value
    }
}
