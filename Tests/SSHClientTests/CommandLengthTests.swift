import Foundation
import RWSTestSupport
import Testing

@testable import SSHClient

/// One exec request carries a command line of at most `SSHConnection.maximumCommandLength` bytes
/// (libssh2 sends no packet over 35,000 bytes): one at the limit runs (on OpenSSH: dropbear takes
/// 9,000 bytes and drops the connection over that), one over it is refused before anything is
/// sent, in rws's words, and the connection goes on.
@Suite struct CommandLengthTests {
    /// `printf %s 'xx…x' | wc -c` whose wrapped command line is exactly `length` bytes.
    static func command(wrappedLength length: Int) -> (command: String, xs: Int) {
        let xs = length - StoppableCommand.wrap("printf %s '' | wc -c").utf8.count
        let command = "printf %s '\(String(repeating: "x", count: xs))' | wc -c"
        precondition(StoppableCommand.wrap(command).utf8.count == length)
        return (command, xs)
    }

    @Test func aCommandAtTheLimitRunsOnOpenSSH() async throws {
        try await SharedTestServer.get(.openssh).withConnection { connection in
            let atLimit = Self.command(wrappedLength: SSHConnection.maximumCommandLength)
            let result = try await connection.run(atLimit.command)
            #expect(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "\(atLimit.xs)")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func oneByteOverTheLimitIsRefusedBeforeItIsSentAndTheConnectionGoesOn(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            let over = Self.command(wrappedLength: SSHConnection.maximumCommandLength + 1)
            var refusal: SSHError?
            do {
                _ = try await connection.run(over.command)
            } catch let error as SSHError {
                refusal = error
            }
            guard case .commandTooLong(let length, let limit) = refusal else {
                Issue.record("not commandTooLong: \(String(describing: refusal))")
                return
            }
            #expect(length == SSHConnection.maximumCommandLength + 1 && limit == SSHConnection.maximumCommandLength)
            #expect("\(refusal!)".contains("standard input"))
            #expect(throws: SSHError.self) { _ = try connection.stream(over.command) }
            let after = try await connection.run("echo still here")
            #expect(after.stdoutText == "still here\n")
        }
    }
}
