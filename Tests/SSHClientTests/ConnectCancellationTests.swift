import Foundation
import Platform
import RWSTestSupport
import Synchronization
import Testing

@testable import SSHClient

/// Cancelling the task that connects ends the connect at once, whatever it waits for (a server
/// that never speaks, a person's answer), with a `CancellationError` and nothing left open.
@Suite(.timeLimit(.minutes(1))) struct ConnectCancellationTests {
    /// A listener on 127.0.0.1 that accepts one connection, never writes, and notes when the
    /// client closed it.
    private final class SilentListener: Sendable {
        let listener: Int32
        let port: Int
        let accepted = Atomic<Bool>(false)
        let closedByClient = Atomic<Bool>(false)

        init() throws {
            let address = SystemCall.loopback(port: 0)
            listener = try SystemCall.socket(for: address)
            try SystemCall.bind(listener, to: address)
            try SystemCall.listen(listener)
            port = try SystemCall.localPort(of: listener)
            Thread.detachNewThread { [self] in
                guard let client = try? SystemCall.accept(listener) else { return }
                accepted.store(true, ordering: .sequentiallyConsistent)
                var buffer = [UInt8](repeating: 0, count: 4096)
                // The client's banner, then nothing until it closes its end.
                while let count = try? buffer.withUnsafeMutableBytes({ try SystemCall.read(client, into: $0) }), count > 0 {}
                closedByClient.store(true, ordering: .sequentiallyConsistent)
                SystemCall.close(client)
            }
        }
    }

    /// Starts connecting with `configuration`, cancels once `ready` holds (looked at every 50 ms),
    /// and returns how the connect ended and how long it took after the cancel.
    private func connectAndCancel(
        _ configuration: SSHConnectionConfiguration, once ready: @escaping @Sendable () -> Bool
    ) async throws -> (Result<SSHConnection, any Error>, Duration) {
        let task = Task { try await SSHConnection.connect(configuration) }
        #expect(try await Eventually.holds(within: .seconds(20)) { ready() }, "the connect never got where it was to be cancelled")
        let cancelled = ContinuousClock.now
        task.cancel()
        let result = await task.result
        return (result, ContinuousClock.now - cancelled)
    }

    @Test func cancellingWhileTheServerSaysNothingEndsTheConnectAndClosesTheSocket() async throws {
        let server = try SilentListener()
        defer { SystemCall.close(server.listener) }
        var configuration = try SharedTestServer.get().configuration()
        configuration.host = "127.0.0.1"
        configuration.port = server.port
        configuration.connectTimeout = .seconds(30)
        let (result, took) = try await connectAndCancel(configuration) { server.accepted.load(ordering: .sequentiallyConsistent) }
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(took < .seconds(2), "the connect went on for \(took) after its task was cancelled")
        #expect(try await Eventually.holds(within: .seconds(5)) { server.closedByClient.load(ordering: .sequentiallyConsistent) })
    }

    @Test(arguments: ServerKind.allCases)
    func cancellingWhileAPersonDecidesAboutTheHostKeyEndsTheQuestionAndTheConnect(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        let questionAsked = Atomic<Bool>(false), questionEnded = Atomic<Bool>(false)
        var configuration = server.configuration()
        configuration.knownHostsFile = server.directory.path + "/empty_known_hosts"
        configuration.hostKeyPolicy = .ask { _ in
            questionAsked.store(true, ordering: .sequentiallyConsistent)
            // A person who has not answered yet: the question ends only when the connect is given up.
            try? await Task.sleep(for: .seconds(600))
            questionEnded.store(true, ordering: .sequentiallyConsistent)
            return .refuse
        }
        let (result, took) = try await connectAndCancel(configuration) { questionAsked.load(ordering: .sequentiallyConsistent) }
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(took < .seconds(2), "the connect went on for \(took) after its task was cancelled")
        #expect(try await Eventually.holds { questionEnded.load(ordering: .sequentiallyConsistent) }, "the question was left waiting")
        // The server's process for that connection goes once the socket is closed.
        #expect(try await Eventually.holds(within: .seconds(10)) { server.connectionProcesses.isEmpty })
    }
}
