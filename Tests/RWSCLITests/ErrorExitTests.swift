import Foundation
import RWSTestSupport
import Testing

/// Commands that fail after connecting close the connection before they exit: the exit code is
/// the documented one, never a crash of an exit racing the I/O thread's teardown.
@Suite(.timeLimit(.minutes(3))) struct ErrorExitTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-cli-home-\(UUID().uuidString.prefix(8))").path

    @Test func everyConnectedCommandFailingOnTheBoxExitsWithItsCodeAndNoCrash() async throws {
        let server = try SharedTestServer.get()
        let missing = "missing-\(UUID().uuidString.prefix(8))"
        let failures: [(arguments: [String], status: Int32)] = [
            (["ls", missing], 1),
            (["cat", missing], 1),
            (["rm-session", missing, "--yes"], 1),
            (["rename", missing, "a title"], 1),
            (["delete", missing, "--yes"], 1),
            (["clone", "/nonexistent/\(missing).git", "--allow-local"], 1),
            (["history", missing], 1),
            (["exec", "--timeout", "1s", "--", "sleep 30"], 124),
        ]
        // Each several times: the crash this guards against came about one run in three.
        for _ in 0..<3 {
            for failure in failures {
                let outcome = try await RWSBinary.run(
                    [failure.arguments[0]] + server.rwsFlags + Array(failure.arguments.dropFirst()), home: home)
                #expect(outcome.status == failure.status, "\(failure.arguments): \(outcome.status) \(outcome.stderr)")
                let lastLine = outcome.stderr.split(separator: "\n").last.map(String.init) ?? ""
                #expect(lastLine.hasPrefix("rws: "), "\(failure.arguments): \(outcome.stderr)")
            }
        }
    }
}
