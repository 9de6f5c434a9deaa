import Foundation
import Platform
import RWSTestSupport
import Testing

/// A crash of rws is never hidden by a test: a run that dies of a crash signal is noted in the
/// crash log, on which `scripts/test` fails the whole run whatever the test asserted, with the
/// backtrace Swift printed. A signal a test sends to stop rws is not a crash.
@Suite(.timeLimit(.minutes(1))) struct CrashReportingTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-crash-home-\(UUID().uuidString.prefix(8))").path

    /// `rws exec` of a long command, sent `signal` once it runs; what the crash log then holds.
    private func signalled(_ signal: Int32) async throws -> (RWSBinary.Outcome, String) {
        let server = try SharedTestServer.get(.default)
        let log = home + ".crashes"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let outcome = try await RWSBinary.$crashLog.withValue(log) {
            try await RWSBinary.run(
                ["exec"] + server.rwsFlags + ["--", "echo ready; sleep 5"], home: home, until: { $0.contains("ready") },
                within: .seconds(20)
            ) { pid in try SystemCall.kill(pid, signal) }
        }
        return (outcome, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }

    /// A SIGSEGV sent from outside stands for a fault: Swift's backtracer reports it as a crash
    /// (and, the fault not being real, lets rws go on, which a real one would not).
    @Test func aCrashIsNotedWithTheBacktraceSwiftPrinted() async throws {
        let (outcome, noted) = try await signalled(SIGSEGV)
        #expect(outcome.stderr.contains("*** Program crashed") && outcome.stderr.contains("Thread 0"), "\(outcome)")
        #expect(noted.hasPrefix("== rws exec ") && noted.contains("*** Program crashed"), "\(noted)")
    }

    @Test func aSignalThatStopsRwsIsNotACrash() async throws {
        let (outcome, noted) = try await signalled(SIGKILL)
        #expect(outcome.killedBy == SIGKILL)
        #expect(noted.isEmpty, "\(noted)")
    }
}
