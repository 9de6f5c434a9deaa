import Foundation
import RWSTestSupport
import SSHClient
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1))) struct CommandInputTests {
    @Test(arguments: ServerKind.allCases)
    func closingTheInputOfACommandThatAlreadyEndedReturnsAtOnce(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            let command = try connection.stream("echo done")
            for try await _ in command.output {}
            let closed = Mutex(false)
            // Unstructured, so that a regression (a request nobody answers) fails instead of hanging.
            Task {
                try await command.closeInput()
                closed.withLock { $0 = true }
            }
            var waited = 0
            while !closed.withLock({ $0 }), waited < 100 {
                try await Task.sleep(for: .milliseconds(50))
                waited += 1
            }
            #expect(closed.withLock { $0 }, "closeInput() returned")
            #expect(try await command.exitStatus() == .exited(0))
        }
    }
}
