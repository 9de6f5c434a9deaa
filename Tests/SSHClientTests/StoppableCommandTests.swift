import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// The wrapper that makes commands stoppable changes nothing the command can see, except that
/// its shell leads a session of its own, on every server.
@Suite struct StoppableCommandTests {
    @Test(arguments: ServerKind.allCases)
    func theCommandsShellLeadsItsOwnSessionAndProcessGroup(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { (connection) async throws in
            let ids = try await connection.run("ps -o pid=,sid=,pgid= -p $$").stdoutText.split(separator: " ").map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            #expect(ids.count == 3)
            #expect(Set(ids).count == 1)
        }
    }

    @Test(arguments: ServerKind.allCases)
    func quotingStdinExitStatusAndDollarZeroAreTheCommandsOwn(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { (connection) async throws in
            let result = try await connection.run(#"printf '%s|' "a'b" "\"c\"" '$HOME' "${0##*/}"; cat; exit 3"#, input: Array("in\n".utf8))
            #expect(result.stdoutText == "a'b|\"c\"|$HOME|bash|in\n")
            #expect(result.status == .exited(3))
        }
    }
}
