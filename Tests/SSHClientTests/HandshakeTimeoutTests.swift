import Foundation
import Platform
import RWSTestSupport
import Testing

@testable import SSHClient

/// A port that takes the TCP connection but never speaks SSH is not reported as an unreachable
/// address: the error says the connection was made and no SSH identification came, and what to
/// check. A server that sent its identification and then stalled is told apart, and so is one
/// that closes the connection before its identification (a server limiting connections).
@Suite(.timeLimit(.minutes(1))) struct HandshakeTimeoutTests {
    /// A listening socket on 127.0.0.1 whose connections get `greeting` (if any) and then
    /// nothing, or, with `closing`, are closed at once.
    private final class SilentServer: Sendable {
        let listener: Int32
        let port: Int

        init(greeting: String?, closing: Bool = false) throws {
            let address = SystemCall.loopback(port: 0)
            listener = try SystemCall.socket(for: address)
            try SystemCall.bind(listener, to: address)
            try SystemCall.listen(listener)
            port = try SystemCall.localPort(of: listener)
            guard greeting != nil || closing else { return }  // never accepted: the kernel alone completes the TCP handshake
            let listener = listener
            Thread.detachNewThread {
                guard let client = try? SystemCall.accept(listener) else { return }
                if closing { return SystemCall.close(client) }
                _ = Array((greeting ?? "").utf8).withUnsafeBytes { try? SystemCall.send(client, from: $0) }
                // Held open, silent, until the test closes the listener and the process ends.
            }
        }

        func configuration(timeout: Duration) throws -> SSHConnectionConfiguration {
            var configuration = try SharedTestServer.get().configuration()
            configuration.host = "127.0.0.1"
            configuration.port = port
            configuration.connectTimeout = timeout
            return configuration
        }
    }

    @Test func aPortThatTakesTheConnectionButSendsNothingIsToldApartFromAnUnreachableOne() async throws {
        let server = try SilentServer(greeting: nil)
        defer { SystemCall.close(server.listener) }
        let expected = SSHError.handshakeTimedOut(host: "127.0.0.1", port: server.port, after: .seconds(1), bannerReceived: false)
        let start = ContinuousClock.now
        await #expect(throws: expected) { _ = try await SSHConnection.connect(try server.configuration(timeout: .seconds(1))) }
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(expected.description.contains("took the connection but sent no SSH identification within 1s"), "\(expected)")
    }

    @Test func aServerThatSentItsIdentificationAndThenStalledIsToldSo() async throws {
        let server = try SilentServer(greeting: "SSH-2.0-OpenSSH_9.2p1 stalled\r\n")
        defer { SystemCall.close(server.listener) }
        let expected = SSHError.handshakeTimedOut(host: "127.0.0.1", port: server.port, after: .seconds(1), bannerReceived: true)
        await #expect(throws: expected) { _ = try await SSHConnection.connect(try server.configuration(timeout: .seconds(1))) }
        #expect(expected.description.contains("did not finish within 1s"), "\(expected)")
    }

    @Test func aServerThatClosesTheConnectionBeforeItsIdentificationIsToldSo() async throws {
        let server = try SilentServer(greeting: nil, closing: true)
        defer { SystemCall.close(server.listener) }
        let expected = SSHError.closedBeforeIdentification(host: "127.0.0.1", port: server.port)
        await #expect(throws: expected) { _ = try await SSHConnection.connect(try server.configuration(timeout: .seconds(10))) }
        #expect(expected.description.contains("closed the connection before sending its SSH identification"), "\(expected)")
    }
}
