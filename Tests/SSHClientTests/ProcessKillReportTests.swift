import Testing

@testable import SSHClient

/// What the kill script's report means (pure, no SSH): survivors with their command lines, and
/// an unchecked end that says why it could not be checked.
@Suite struct ProcessKillReportTests {
    private func report(_ text: String) -> Result<CommandResult, SSHError> {
        .success(CommandResult(stdout: Array(text.utf8), stderr: [], status: .exited(0)))
    }

    @Test func survivorsComeWithTheirCommandLines() {
        let outcome = ProcessKill.outcome(of: report("rws-stop-cmd:12 sleep 300\nrws-stop-cmd:13 \nrws-stop:12 13 \n"))
        #expect(outcome == .survivors([12, 13], commandLines: [12: "sleep 300"]))
        let error = ProcessKill.error(outcome, reason: .connectionClosed, command: "c")
        #expect(error.description.contains("PIDs 12 13 still running"))
        #expect(error.description.contains("\n  12 sleep 300"))
        #expect(error.description.contains("\n  13"))
    }

    @Test func anEmptyReportIsStopped() {
        #expect(ProcessKill.outcome(of: report("rws-stop:\n")) == .stopped)
    }

    @Test func anUnreadableTableIsTheOnlyCaseCalledThat() {
        let unreadable = ProcessKill.error(
            ProcessKill.outcome(of: report("rws-stop:unverified\n")), reason: .connectionClosed, command: "c")
        #expect(unreadable.description.contains("the remote process table could not be read"))
        let cutOff = ProcessKill.outcome(of: .failure(.connectionLost(reason: "reset")))
        #expect(cutOff == .notRun(.connectionLost(reason: "reset")), "a stop cut off keeps the link's error, for a retry")
        let failed = ProcessKill.error(cutOff, reason: .connectionClosed, command: "c")
        #expect(failed.description.contains("the stop could not run"))
        #expect(!failed.description.contains("process table"))
    }
}
