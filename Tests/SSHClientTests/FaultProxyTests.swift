import Foundation
import Platform
import RWSTestSupport
import SSHClient
import Testing

/// The fault-injection proxy behaves like the network faults it stands for, and the connection
/// core reacts to each as documented. Bounds here are lower bounds of physics (a 50 ms round
/// trip cannot answer in less) or detection bounds the library states, never speed targets.
@Suite(.timeLimit(.minutes(2))) struct FaultProxyTests {
    @Test func commandsPassThroughAnUntouchedLink() async throws {
        let server = try SharedTestServer.get()
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let connection = try await SSHConnection.connect(try server.configuration(through: proxy))
        let result = try await connection.run("echo through")
        await connection.close()
        #expect(result.stdoutText == "through\n")
        #expect(proxy.acceptedConnections == 1 && proxy.forwardedBytes > 0)
    }

    @Test func latencyDelaysEveryRoundTrip() async throws {
        let server = try SharedTestServer.get()
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let connection = try await SSHConnection.connect(try server.configuration(through: proxy))
        proxy.setLink(.init(latency: .milliseconds(25)))
        let start = ContinuousClock.now
        _ = try await connection.run("true")
        let elapsed = ContinuousClock.now - start
        await connection.close()
        // Channel open, exec request and the command's end: at least two 50 ms round trips.
        #expect(elapsed >= .milliseconds(100), "\(elapsed)")
    }

    @Test func aRateLimitBoundsThroughput() async throws {
        let server = try SharedTestServer.get()
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let connection = try await SSHConnection.connect(try server.configuration(through: proxy))
        proxy.setLink(.init(bytesPerSecond: 500_000))
        let start = ContinuousClock.now
        let result = try await connection.run("head -c 1000000 /dev/zero")
        let elapsed = ContinuousClock.now - start
        await connection.close()
        #expect(result.stdout.count == 1_000_000)
        #expect(elapsed >= .milliseconds(1800), "1 MB at 0.5 MB/s took \(elapsed)")
    }

    @Test func cuttingTheLinkFailsRunningCommandsWithConnectionLostAtOnce() async throws {
        let server = try SharedTestServer.get()
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let connection = try await SSHConnection.connect(try server.configuration(through: proxy))
        let running = Task { try await connection.run("sleep 30") }
        try await Task.sleep(for: .milliseconds(300))
        let start = ContinuousClock.now
        proxy.cutAll()
        await #expect { try await running.value } throws: { error in
            guard case SSHError.connectionLost = error else { return false }
            return true
        }
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(connection.isClosed)
    }

    /// A write the loop tries on the reset link fails as connection lost, as the command does:
    /// a detached conversation writes its answer again after the reattach only then (the race
    /// finder saw it fail as "writing command input failed (libssh2 error -43)").
    @Test func aWriteToACommandOverACutLinkFailsWithConnectionLost() async throws {
        let server = try SharedTestServer.get()
        for _ in 0..<50 {
            let proxy = try FaultProxy(targetPort: server.port)
            defer { proxy.stop() }
            let connection = try await SSHConnection.connect(try server.configuration(through: proxy))
            let command = try connection.stream("cat > /dev/null")
            try await command.write("before\n")
            proxy.cutAll()
            // A write may still leave before the loop meets the reset; one soon after fails.
            // Soon is a time, not a count: a starved loop meets the reset late, and writes this
            // small fit in the channel's window meanwhile (500 of them once passed unfailed).
            var failure: (any Error)?
            let deadline = ContinuousClock.now + .seconds(10)
            while failure == nil, ContinuousClock.now < deadline {
                do { try await command.write("after\n") } catch { failure = error }
                if failure == nil { try await Task.sleep(for: .milliseconds(1)) }
            }
            guard case SSHError.connectionLost? = failure as? SSHError else {
                Issue.record("a write after the cut gave \(String(describing: failure))")
                await connection.close()
                return
            }
            await connection.close()
        }
    }

    @Test func aConnectionIsResetByTheTimeCutAllReturns() throws {
        let echo = try EchoServer()
        defer { echo.stop() }
        let proxy = try FaultProxy(targetPort: echo.port)
        defer { proxy.stop() }
        let address = SystemCall.loopback(port: proxy.port)
        let fd = try SystemCall.socket(for: address)
        defer { SystemCall.close(fd) }
        #expect(try SystemCall.connect(fd, to: address))
        _ = try [UInt8]("ping".utf8).withUnsafeBytes { try SystemCall.send(fd, from: $0) }
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(try buffer.withUnsafeMutableBytes { try SystemCall.receive(fd, into: $0) } == 4)
        proxy.cutAll()
        // Without waiting: a test's next step must not travel the old connection.
        #expect(throws: SystemCallError.self) {
            _ = try buffer.withUnsafeMutableBytes { try SystemCall.receive(fd, into: $0, flags: Int32(MSG_DONTWAIT)) }
        }
    }

    @Test func aRoundTripThroughABlackHoleEndsAtItsLimitAndAfterItTheLinkCarriesBytesAgain() throws {
        let echo = try EchoServer()
        defer { echo.stop() }
        let proxy = try FaultProxy(targetPort: echo.port)
        defer { proxy.stop() }
        proxy.setBlackHole(true)
        #expect { _ = try EchoServer.roundTrip(port: proxy.port, [1, 2, 3], limit: .milliseconds(300)) } throws: { error in
            (error as? SystemCallError)?.code == ETIMEDOUT
        }
        proxy.setBlackHole(false)
        #expect(try EchoServer.roundTrip(port: proxy.port, [4, 5, 6]) == [4, 5, 6])
    }

    @Test func aBlackHoledLinkIsDetectedWithinTheDeadPeerTimeout() async throws {
        let server = try SharedTestServer.get()
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        var configuration = try server.configuration(through: proxy, deadPeerTimeout: .seconds(3))
        configuration.keepaliveInterval = .seconds(1)
        let connection = try await SSHConnection.connect(configuration)
        let running = Task { try await connection.run("sleep 30") }
        try await Task.sleep(for: .milliseconds(300))
        let start = ContinuousClock.now
        proxy.setBlackHole(true)
        await #expect { try await running.value } throws: { error in
            guard case SSHError.connectionLost = error else { return false }
            return true
        }
        let detected = ContinuousClock.now - start
        // The stated bound: deadPeerTimeout after the last byte, plus one keepalive interval.
        #expect(detected >= .seconds(2) && detected < .seconds(5), "\(detected)")
        proxy.setBlackHole(false)
        let again = try await SSHConnection.connect(configuration)
        #expect(try await again.run("echo back").stdoutText == "back\n")
        await again.close()
    }
}
