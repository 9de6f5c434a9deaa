import Foundation
import RWSTestSupport
import SSHClient
import Testing

@Suite struct CommandTests {
    @Test func runReturnsStdoutStderrAndExitStatus() async throws {
        let connection = try await SharedTestServer.get().connect()
        let result = try await connection.run("echo out; echo err >&2; exit 3")
        #expect(result.stdoutText == "out\n")
        #expect(result.stderrText == "err\n")
        #expect(result.status == .exited(3))
        await connection.close()
    }
}
