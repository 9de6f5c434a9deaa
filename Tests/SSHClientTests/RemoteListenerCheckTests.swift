import Testing

@testable import SSHClient

/// Who holds a remote forward's port on the box, from the check script's output: the session's
/// sshd (an ancestor of the script), another program, or nobody the box shows.
@Suite struct RemoteListenerCheckTests {
    /// The script's shell 300, its dropbear 200, the dropbear master 100; 5432 is a postgres.
    private let ancestors = "A 300\nA 200\nA 100\n"
    private let ipv6Loopback = "00000000000000000000000001000000"

    @Test func aPortTheSessionsSSHDHoldsOnTheAddressIsTheSessions() {
        let output =
            ancestors + "L tcp 0100007F:1F90 11\nL tcp6 \(ipv6Loopback):1F90 12\nP 200 11 100 dropbear\nP 200 12 100 dropbear\n"
        #expect(RemoteListenerCheck.holder(in: output, address: "127.0.0.1", port: 8080) == .theSession)
    }

    @Test func aPortListenedOnOnlyOnTheIPv6LoopbackWhileAnotherProgramHoldsTheIPv4OneIsAnothers() {
        let output =
            ancestors + "L tcp 0100007F:1F90 21\nL tcp6 \(ipv6Loopback):1F90 12\nP 200 12 100 dropbear\nP 4242 21 1 postgres\n"
        #expect(RemoteListenerCheck.holder(in: output, address: "127.0.0.1", port: 8080) == .another)
    }

    /// Where the box is this machine, the program holding 127.0.0.1 may have started the server.
    @Test func anIPv4HolderFurtherUpThanTheSessionsSSHDIsAnother() {
        let output =
            ancestors + "L tcp 0100007F:1F90 21\nL tcp6 \(ipv6Loopback):1F90 12\nP 200 12 100 dropbear\nP 100 21 1 tests\n"
        #expect(RemoteListenerCheck.holder(in: output, address: "127.0.0.1", port: 8080) == .another)
    }

    @Test func aPortNobodyListensOnIsAnothers() {
        let output = ancestors + "L tcp6 \(ipv6Loopback):1F90 12\nP 200 12 100 dropbear\n"
        #expect(RemoteListenerCheck.holder(in: output, address: "127.0.0.1", port: 8080) == .another)
    }

    @Test func theWildcardAddressCountsForTheLoopback() {
        let output = ancestors + "L tcp 00000000:1F90 11\nP 200 11 100 dropbear\n"
        #expect(RemoteListenerCheck.holder(in: output, address: "127.0.0.1", port: 8080) == .theSession)
    }

    @Test func anOwnerTheLoginMayNotReadOrABoxWithoutProcIsUnknown() {
        #expect(RemoteListenerCheck.holder(in: ancestors + "L tcp 0100007F:1F90 11\n", address: "127.0.0.1", port: 8080) == .unknown)
        #expect(RemoteListenerCheck.holder(in: ancestors, address: "127.0.0.1", port: 8080) == .unknown)
    }

    @Test func onlyDropbearNeedsTheCheck() {
        #expect(RemoteListenerCheck.applies(toServer: "SSH-2.0-dropbear_2022.83"))
        #expect(!RemoteListenerCheck.applies(toServer: "SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3"))
    }
}
