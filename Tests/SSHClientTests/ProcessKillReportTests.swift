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
        let error = ProcessKill.error(outcome, reason: .connectionClosed, command: "c", pid: 12)
        #expect(error.description.contains("PIDs 12 13 still running"))
        #expect(error.description.contains("\n  12 sleep 300"))
        #expect(error.description.contains("\n  13"))
    }

    @Test func anEmptyReportIsStopped() {
        #expect(ProcessKill.outcome(of: report("rws-stop:\n")) == .stopped)
    }

    @Test func anUnreadableTableIsTheOnlyCaseCalledThat() {
        let unreadable = ProcessKill.error(
            ProcessKill.outcome(of: report("rws-stop:unverified\n")), reason: .connectionClosed, command: "c", pid: 12)
        #expect(unreadable.description.contains("the remote process table could not be read"))
        let cutOff = ProcessKill.outcome(of: .failure(.connectionLost(reason: "reset")))
        #expect(cutOff == .notRun(.connectionLost(reason: "reset")), "a stop cut off keeps the link's error, for a retry")
        let failed = ProcessKill.error(cutOff, reason: .connectionClosed, command: "c", pid: 12)
        #expect(failed.description.contains("the stop could not run"))
        #expect(!failed.description.contains("process table"))
    }

    /// A stop the box did not finish in time says so, and how to end the group by hand; never the
    /// kill script's own command line.
    @Test func aStopTheBoxDidNotFinishInTimeNamesTheGroupToKill() {
        let outcome = ProcessKill.outcome(of: .failure(.timedOut(command: "exec /bin/sh -c 'kill script'", after: .seconds(32))))
        #expect(outcome == .tooSlow(.seconds(32)))
        let error = ProcessKill.error(outcome, reason: .connectionClosed, command: "sleep 300", pid: 4321)
        #expect(
            error.description == "could not verify that the command stopped (the box did not finish the stop within 32s, as a box "
                + "too busy to run it does not; kill -- -4321 there ends it); it may still be running on the box: sleep 300")
    }
}
