import Foundation
import RWSTestSupport
import SSHClient
import Synchronization
import Testing

/// A connection with a reconnect policy comes back after the link drops: work in flight fails
/// with connectionLost and is never re-run, new work waits for the next session, idempotent
/// reads are retried, and the state stream tells each step. Faults come from a FaultProxy.
@Suite(.timeLimit(.minutes(2))) struct ReconnectTests {
    private static let quickPolicy = ReconnectPolicy(
        initialDelay: .milliseconds(200), maximumDelay: .seconds(1), jitter: 0,
        waitForConnection: .seconds(20))

    private struct Link {
        let server: TestSSHServer
        let proxy: FaultProxy
        let connection: SSHConnection
    }

    private func connect(_ policy: ReconnectPolicy = quickPolicy, connectTimeout: Duration = .seconds(2)) async throws -> Link {
        let server = try SharedTestServer.get()
        let proxy = try FaultProxy(targetPort: server.port)
        var configuration = try server.configuration(through: proxy, deadPeerTimeout: .seconds(3))
        configuration.reconnect = policy
        configuration.connectTimeout = connectTimeout
        configuration.keepaliveInterval = .seconds(1)
        return Link(server: server, proxy: proxy, connection: try await SSHConnection.connect(configuration))
    }

    @Test func theStateStreamTellsLossReconnectAndConnectedAgain() async throws {
        let link = try await connect()
        defer { link.proxy.stop() }
        let seen = Mutex<[ConnectionState]>([])
        let watcher = Task { for await state in link.connection.states() { seen.withLock { $0.append(state) } } }
        #expect(try await Eventually.holds(within: .seconds(15)) { seen.withLock { $0 } == [.connected] })
        link.proxy.cutAll()
        #expect(try await Eventually.holds(within: .seconds(15)) { seen.withLock { $0.count } >= 4 }, "\(seen.withLock { $0 })")
        #expect(try await link.connection.run("echo back").stdoutText == "back\n")
        await link.connection.close()
        await watcher.value
        let states = seen.withLock { $0 }
        guard states.count == 5, case .reconnecting(1, let delay, let reason) = states[1] else {
            Issue.record("states: \(states)")
            return
        }
        #expect(delay == .milliseconds(200))
        #expect(reason.contains("closed the connection") || reason.contains("lost"), "\(reason)")
        #expect(Array(states[2...]) == [.connecting(attempt: 1), .connected, .closed(reason: nil)])
        #expect(link.proxy.acceptedConnections == 2)
    }

    /// With a policy the connection is meant to stay up: idle, it still probes the link, so a
    /// black hole is noticed within the dead-peer timeout and the link comes back on its own.
    @Test func anIdleConnectionNoticesABlackHoleAndComesBackWithoutAnyCommand() async throws {
        let link = try await connect()
        defer { link.proxy.stop() }
        let seen = Mutex<[ConnectionState]>([])
        let watcher = Task { for await state in link.connection.states() { seen.withLock { $0.append(state) } } }
        #expect(try await Eventually.holds(within: .seconds(15)) { seen.withLock { $0 } == [.connected] })
        link.proxy.setBlackHole(true)
        let lost = try await Eventually.holds(within: .seconds(10)) {
            seen.withLock { states in states.contains { if case .reconnecting = $0 { true } else { false } } }
        }
        #expect(lost, "an idle connection never noticed the black hole: \(seen.withLock { $0 })")
        link.proxy.setBlackHole(false)
        #expect(try await Eventually.holds(within: .seconds(20)) { seen.withLock { $0.last } == .connected }, "\(seen.withLock { $0 })")
        await link.connection.close()
        await watcher.value
    }

    @Test func aCommandInFlightFailsWithConnectionLostAndIsNeverRunAgain() async throws {
        let link = try await connect()
        defer { link.proxy.stop() }
        let marker = link.server.remoteHome + "/ran-\(UUID().uuidString.prefix(8))"
        let running = Task { try await link.connection.run("echo once >> \(marker); sleep 2") }
        #expect(try await Eventually.holds(within: .seconds(15)) { FileManager.default.fileExists(atPath: marker) })
        link.proxy.cutAll()
        await #expect { try await running.value } throws: { error in
            guard case SSHError.connectionLost = error else { return false }
            return true
        }
        #expect(try await link.connection.run("echo after").stdoutText == "after\n")
        try await Task.sleep(for: .seconds(2))
        #expect(try String(contentsOfFile: marker, encoding: .utf8) == "once\n")
        await link.connection.close()
    }

    @Test func newWorkWaitsForTheReconnect() async throws {
        let link = try await connect(connectTimeout: .seconds(1))
        defer { link.proxy.stop() }
        link.proxy.setBlackHole(true)
        link.proxy.cutAll()
        #expect(try await Eventually.holds(within: .seconds(15)) { if case .connected = link.connection.state { false } else { true } })
        let command = Task { try await link.connection.run("echo waited").stdoutText }
        let stream = try link.connection.stream("echo streamed")
        let listing = Task { try await link.connection.listDirectory("/").map(\.name) }
        try await Task.sleep(for: .milliseconds(1500))
        #expect(!link.connection.isClosed)
        link.proxy.setBlackHole(false)
        #expect(try await command.value == "waited\n")
        var streamed: [UInt8] = []
        for try await event in stream.output { if case .stdout(let bytes) = event { streamed += bytes } }
        #expect(String(decoding: streamed, as: UTF8.self) == "streamed\n")
        #expect(try await listing.value.contains("tmp"))
        await link.connection.close()
    }

    @Test func idempotentCommandsAndReadsInFlightAreRetriedOnTheNextSession() async throws {
        let link = try await connect()
        defer { link.proxy.stop() }
        let command = Task { try await link.connection.run("sleep 1; echo done", idempotent: true).stdoutText }
        try await Task.sleep(for: .milliseconds(300))
        link.proxy.cutAll()
        #expect(try await command.value == "done\n")
        await link.connection.close()
    }

    @Test func newWorkFailsWhenTheConnectionIsNotBackWithinTheWait() async throws {
        let policy = ReconnectPolicy(initialDelay: .milliseconds(200), jitter: 0, waitForConnection: .seconds(1))
        let link = try await connect(policy, connectTimeout: .seconds(1))
        defer { link.proxy.stop() }
        link.proxy.setBlackHole(true)
        link.proxy.cutAll()
        let start = ContinuousClock.now
        await #expect { try await link.connection.run("true") } throws: { error in
            guard case SSHError.connectionLost(let reason) = error else { return false }
            return reason.contains("not reconnected within 1")
        }
        #expect(ContinuousClock.now - start < .seconds(3))
        await link.connection.close()
    }

    @Test func afterTheLastAttemptTheConnectionIsClosedWithTheReason() async throws {
        let policy = ReconnectPolicy(initialDelay: .milliseconds(100), jitter: 0, maximumAttempts: 2)
        let link = try await connect(policy, connectTimeout: .milliseconds(500))
        defer { link.proxy.stop() }
        link.proxy.setBlackHole(true)
        link.proxy.cutAll()
        var last: ConnectionState?
        for await state in link.connection.states() { last = state }
        guard case .closed(let reason?) = last else {
            Issue.record("ended with \(String(describing: last))")
            return
        }
        #expect(reason.contains("gave up after 2 reconnect attempts"), "\(reason)")
        #expect(link.connection.isClosed)
        await #expect(throws: SSHError.self) { try await link.connection.run("true") }
    }

    @Test func withoutAPolicyALostConnectionIsClosedForGood() async throws {
        let server = try SharedTestServer.get()
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let connection = try await SSHConnection.connect(try server.configuration(through: proxy))
        proxy.cutAll()
        var last: ConnectionState?
        for await state in connection.states() { last = state }
        guard case .closed(let reason?) = last else {
            Issue.record("ended with \(String(describing: last))")
            return
        }
        #expect(!reason.isEmpty)
        #expect(connection.isClosed)
    }
}
