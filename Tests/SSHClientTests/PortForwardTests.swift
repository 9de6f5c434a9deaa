import Foundation
import Platform
import RWSTestSupport
import SSHClient
import Testing

/// Local port forwarding: connections to a local port are carried to a port on the box, each
/// over its own direct-tcpip channel, many at once; the listener outlives a dropped link.
@Suite(.timeLimit(.minutes(2))) struct PortForwardTests {
    @Test(arguments: ServerKind.allCases)
    func manyConnectionsAtOnceEachGetTheirOwnBytesBack(kind: ServerKind) async throws {
        let echo = try EchoServer()
        defer { echo.stop() }
        _ = try await SharedTestServer.get(kind).withConnection { connection in
            let forward = try connection.forwardLocal(to: echo.port)
            defer { forward.close() }
            #expect(forward.localPort != echo.port && forward.localPort > 0)
            let payloads = (0..<8).map { index in TestBytes.make(256 * 1024 + index, seed: UInt64(10 + index)) }
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for payload in payloads {
                    group.addTask {
                        try await Blocking.onThread { try EchoServer.roundTrip(port: forward.localPort, payload) } == payload
                    }
                }
                for try await same in group { #expect(same) }
            }
            #expect(forward.acceptedConnections == 8)
            #expect(echo.acceptedConnections == 8)
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aPortNothingListensOnClosesTheLocalConnectionAndSaysWhy(kind: ServerKind) async throws {
        let unused = try EchoServer()
        unused.stop()  // its port is now closed on the box
        try await Task.sleep(for: .milliseconds(50))
        _ = try await SharedTestServer.get(kind).withConnection { connection in
            let forward = try connection.forwardLocal(to: unused.port)
            defer { forward.close() }
            // Closed with nothing read back, or reset (the greeting was never read), as ssh -L does.
            let back = try? await Blocking.onThread { try EchoServer.roundTrip(port: forward.localPort, Array("hello".utf8)) }
            #expect(back?.isEmpty ?? true)
            var failures = forward.failures.makeAsyncIterator()
            let failure = try #require(await failures.next())
            #expect(failure.description.contains("127.0.0.1:\(unused.port)") && failure.description.contains("refused"), "\(failure)")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func theListenerStaysThroughADroppedLinkAndCarriesNewConnectionsAfterTheReconnect(kind: ServerKind) async throws {
        let echo = try EchoServer()
        defer { echo.stop() }
        let server = try SharedTestServer.get(kind)
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        var configuration = try server.configuration(through: proxy)
        configuration.reconnect = ReconnectPolicy(initialDelay: .milliseconds(100), waitForConnection: .seconds(30))
        let connection = try await SSHConnection.connect(configuration)
        let forward = try connection.forwardLocal(to: echo.port)
        let before = try await Blocking.onThread { try EchoServer.roundTrip(port: forward.localPort, Array("before".utf8)) }
        #expect(before == Array("before".utf8))
        proxy.cutAll()
        let after = try await Blocking.onThread { try EchoServer.roundTrip(port: forward.localPort, Array("after".utf8)) }
        #expect(after == Array("after".utf8))
        #expect(proxy.acceptedConnections >= 2)
        forward.close()
        await connection.close()
    }

    /// At once: `rws forward --auto` says "closed" right after `close()` (a connection right
    /// after that message was once carried on).
    @Test(arguments: ServerKind.allCases)
    func afterCloseTheLocalPortRefusesConnectionsAtOnce(kind: ServerKind) async throws {
        let echo = try EchoServer()
        defer { echo.stop() }
        _ = try await SharedTestServer.get(kind).withConnection { connection in
            for _ in 0..<50 {
                let forward = try connection.forwardLocal(to: echo.port)
                forward.close()
                #expect(throws: SystemCallError.self) { _ = try EchoServer.roundTrip(port: forward.localPort, [1]) }
                var ended = forward.failures.makeAsyncIterator()
                #expect(await ended.next() == nil)
            }
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aLocalPortInUseIsAClearError(kind: ServerKind) async throws {
        let taken = try EchoServer()
        defer { taken.stop() }
        _ = try await SharedTestServer.get(kind).withConnection { connection in
            #expect {
                _ = try connection.forwardLocal(port: taken.port, to: 22)
            } throws: { error in
                "\(error)".contains("127.0.0.1:\(taken.port)") && "\(error)".contains("in use")
            }
        }
    }
}
