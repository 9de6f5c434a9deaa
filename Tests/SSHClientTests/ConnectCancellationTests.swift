import Foundation
import Platform
import RWSTestSupport
import Synchronization
import Testing

@testable import SSHClient

/// Cancelling the task that connects ends the connect at once, whatever it waits for (a server
/// that never speaks, a person's answer), with a `CancellationError` and nothing left open.
@Suite(.timeLimit(.minutes(1))) struct ConnectCancellationTests {
    /// A listener on 127.0.0.1 that accepts one connection, writes `banner` if given (an SSH
    /// identification line) and nothing more, and notes what the client sent and when it closed.
    private final class SilentListener: Sendable {
        let listener: Int32
        let port: Int
        let accepted = Atomic<Bool>(false)
        let received = Atomic<Int>(0)
        let closedByClient = Atomic<Bool>(false)

        init(banner: String? = nil) throws {
            let address = SystemCall.loopback(port: 0)
            listener = try SystemCall.socket(for: address)
            try SystemCall.bind(listener, to: address)
            try SystemCall.listen(listener)
            port = try SystemCall.localPort(of: listener)
            Thread.detachNewThread { [self] in
                guard let client = try? SystemCall.accept(listener) else { return }
                accepted.store(true, ordering: .sequentiallyConsistent)
                if let banner { try? SystemCall.writeAll(client, Array(banner.utf8)) }
                var buffer = [UInt8](repeating: 0, count: 4096)
                // The client's banner (and its key exchange offer), then nothing until it closes its end.
                while let count = try? buffer.withUnsafeMutableBytes({ try SystemCall.read(client, into: $0) }), count > 0 {
                    received.add(count, ordering: .sequentiallyConsistent)
                }
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

    @Test func cancellingDuringTheKeyExchangeEndsTheConnectAndClosesTheSocket() async throws {
        // A server that says who it is and then never answers the key exchange.
        let server = try SilentListener(banner: "SSH-2.0-OpenSSH_9.2\r\n")
        defer { SystemCall.close(server.listener) }
        var configuration = try SharedTestServer.get().configuration()
        configuration.host = "127.0.0.1"
        configuration.port = server.port
        configuration.connectTimeout = .seconds(30)
        // Past the client's identification line: its key exchange offer came too.
        let (result, took) = try await connectAndCancel(configuration) { server.received.load(ordering: .sequentiallyConsistent) > 100 }
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(took < .seconds(2), "the connect went on for \(took) after its task was cancelled")
        #expect(try await Eventually.holds(within: .seconds(5)) { server.closedByClient.load(ordering: .sequentiallyConsistent) })
    }

    @Test(arguments: ServerKind.allCases)
    func cancellingWhileAPersonTypesAKeysPassphraseEndsTheQuestionAndTheConnect(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        let key = FileManager.default.temporaryDirectory.appendingPathComponent("rws-cancel-\(UUID().uuidString.prefix(8))").path
        defer { ["", ".pub"].forEach { try? FileManager.default.removeItem(atPath: key + $0) } }
        try Shell.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "locked", "-f", key])
        try server.authorize(publicKeyFile: key + ".pub")
        let questionAsked = Atomic<Bool>(false), questionEnded = Atomic<Bool>(false)
        var configuration = server.configuration()
        configuration.authentication = [.privateKey(path: key)]
        configuration.askPassphrase = { _ in
            questionAsked.store(true, ordering: .sequentiallyConsistent)
            try? await Task.sleep(for: .seconds(600))  // a person who has not typed it yet
            questionEnded.store(true, ordering: .sequentiallyConsistent)
            return nil
        }
        let (result, took) = try await connectAndCancel(configuration) { questionAsked.load(ordering: .sequentiallyConsistent) }
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(took < .seconds(2), "the connect went on for \(took) after its task was cancelled")
        #expect(try await Eventually.holds { questionEnded.load(ordering: .sequentiallyConsistent) }, "the question was left waiting")
        #expect(try await Eventually.holds(within: .seconds(10)) { server.connectionProcesses.isEmpty })
    }

    /// sshd checking the key slowly (its AuthorizedKeysCommand sleeps 5 s): the client waits on
    /// the server during authentication. dropbear has no such command; the question above covers it.
    @Test func cancellingWhileTheServerChecksTheKeyEndsTheConnect() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rws-cancel-\(UUID().uuidString.prefix(8))").path
        defer { ["", ".pub", ".checking"].forEach { try? FileManager.default.removeItem(atPath: scratch + $0) } }
        let server = try TestSSHServer(
            .openssh,
            .init(extraConfig: [
                #"AuthorizedKeysCommand /bin/sh -c "touch \#(scratch).checking; sleep 5""#, "AuthorizedKeysCommandUser root",
            ]))
        defer { server.stop() }
        try Shell.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", scratch])  // not authorized: the command decides
        var configuration = server.configuration()
        configuration.authentication = [.privateKey(path: scratch)]
        let (result, took) = try await connectAndCancel(configuration) { FileManager.default.fileExists(atPath: scratch + ".checking") }
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(took < .seconds(2), "the connect went on for \(took) after its task was cancelled")
        // sshd notices the closed socket once its command is done.
        #expect(try await Eventually.holds(within: .seconds(15)) { server.connectionProcesses.isEmpty })
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
