import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// The I/O loop never sleeps while a reply it waits for is already in the socket.
///
/// A count, not a timing: the loop counts every poll that ran to its timeout while unread bytes
/// sat in the socket and an operation waited on the server. Any such poll is a stall of up to
/// the poll timeout (a second), which showed as 1,004 ms outliers among 3 ms commands.
@Suite struct LoopStallTests {
    @Test(arguments: ServerKind.allCases)
    func hundredsOfSequentialCommandsNeverWaitForThePollTimeoutWithAReplyPending(kind: ServerKind) async throws {
        // 5,000 under RWS_SOAK=full (scripts/soak-tests), 500 in the suite: 1,000 kept a core
        // busy for ~25 s, which the solo lane takes from the main lane running beside it.
        let commands = SoakLength.count(full: 5000, sample: 500)
        try await SharedTestServer.get(kind).withConnection { connection in
            for index in 0..<commands {
                let result = try await connection.run("true")
                #expect(result.status == .exited(0), "command \(index)")
            }
            let statistics = connection.statistics
            #expect(statistics.stalledPolls == 0, "\(statistics)")
            #expect(statistics.channelsOpened >= commands)
        }
    }

    @Test(arguments: ServerKind.allCases)
    func commandsStartedWhileAPausedChannelKeepsReceivingNeverStall(kind: ServerKind) async throws {
        // A command whose reader is not reading (its buffer is full) keeps getting bytes from the
        // server; nobody takes them, so the loop stops asking for them. The replies of every new
        // command must still be read at once.
        try await SharedTestServer.get(kind).withConnection { connection in
            let ticker = try connection.stream("while :; do echo tick; sleep 0.002; done", bufferSize: 1)
            for index in 0..<300 {
                let result = try await connection.run("true")
                #expect(result.status == .exited(0), "command \(index)")
            }
            ticker.cancel()
            let statistics = connection.statistics
            #expect(statistics.stalledPolls == 0, "\(statistics)")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func anIdleShellWhoseKeepalivesWereAnsweredIsNotCountedAsStalled(kind: ServerKind) async throws {
        // libssh2 1.10 keeps every 1-byte keepalive reply in the session's packet queue, and
        // `libssh2_poll_channel_read` then answers -38 ("packet too small") for every channel:
        // read as "data waiting", each idle poll timeout counted as a stall.
        try await SharedTestServer.get(kind).withConnection(adjusting: { $0.keepaliveInterval = .seconds(1) }) { connection in
            let shell = try await connection.openShell()
            let reader = Task { for try await _ in shell.output {} }
            try await Task.sleep(for: .seconds(4))
            let statistics = connection.statistics
            #expect(statistics.stalledPolls == 0, "\(statistics)")
            try await shell.close()
            reader.cancel()
        }
    }
}
