import Testing

@testable import SSHClient

/// A lost link's reason with and without what rws says about a command that may outlive it.
@Suite struct LinkLossReasonTests {
    @Test func theReasonOfALostLinkComesWithoutTheCommandsWhereabouts() {
        let lost = ExecChannel.lostWhileRunning(.connectionLost(reason: "the server stopped answering"), pid: 4242)
        #expect(lost.description.contains("kill -- -4242"), "what a user of the command is told")
        #expect(lost.linkLossReason == "the server stopped answering")
        #expect(SSHError.connectionLost(reason: "reset").linkLossReason == "reset")
        #expect(SSHError.connectionClosed.linkLossReason == nil)
    }
}
