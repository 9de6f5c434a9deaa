import Foundation
import RWSTestSupport
import SSHClient
import Synchronization
import Testing

/// Keyboard-interactive answers are asked for asynchronously, as a person would give them: their
/// time has the prompt timeout, not the connect timeout, and cancelling the connect ends the
/// question. Against asyncssh, the one test server that offers the method (see ThirdServerTests).
@Suite(.timeLimit(.minutes(1))) struct KeyboardInteractiveTests {
    /// The asyncssh server with its password, and a configuration answering its prompt with
    /// `respond`.
    private func setUp(
        _ respond: @escaping @Sendable (KeyboardInteractiveChallenge, String) async -> [String]
    ) throws -> (TestSSHServer, SSHConnectionConfiguration) {
        let server = try TestSSHServer(.asyncssh, .init(passwordAuthentication: true))
        let password = try #require(server.testPassword)
        var configuration = server.configuration()
        configuration.authentication = [.keyboardInteractive { await respond($0, password) }]
        return (server, configuration)
    }

    @Test func anAnswerSlowerThanTheConnectTimeoutStillLogsIn() async throws {
        let (server, settings) = try setUp { challenge, password in
            try? await Task.sleep(for: .seconds(3))  // a person reading a code off a phone
            return challenge.prompts.map { _ in password }
        }
        defer { server.stop() }
        var configuration = settings
        configuration.connectTimeout = .seconds(2)
        let connection = try await SSHConnection.connect(configuration)
        #expect(try await connection.run("echo in").stdoutText == "in\n")
        await connection.close()
    }

    @Test func aPromptNobodyAnswersEndsAtThePromptTimeoutWithItsOwnError() async throws {
        let (server, settings) = try setUp { _, _ in
            try? await Task.sleep(for: .seconds(600))
            return []
        }
        defer { server.stop() }
        var configuration = settings
        configuration.promptTimeout = .seconds(1)
        await #expect(throws: SSHError.keyboardInteractiveTimedOut(host: configuration.host, after: .seconds(1))) {
            _ = try await SSHConnection.connect(configuration)
        }
    }

    @Test func cancellingWhileAPersonTypesEndsTheQuestionAndTheConnect() async throws {
        let asked = Atomic<Bool>(false), ended = Atomic<Bool>(false)
        let (server, configuration) = try setUp { _, _ in
            asked.store(true, ordering: .sequentiallyConsistent)
            try? await Task.sleep(for: .seconds(600))
            ended.store(true, ordering: .sequentiallyConsistent)
            return []
        }
        defer { server.stop() }
        let connecting = Task { try await SSHConnection.connect(configuration) }
        #expect(try await Eventually.holds(within: .seconds(20)) { asked.load(ordering: .sequentiallyConsistent) })
        let cancelled = ContinuousClock.now
        connecting.cancel()
        let result = await connecting.result
        let took = ContinuousClock.now - cancelled
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(took < .seconds(2), "the connect went on for \(took) after its task was cancelled")
        #expect(try await Eventually.holds { ended.load(ordering: .sequentiallyConsistent) }, "the question was left waiting")
    }
}
