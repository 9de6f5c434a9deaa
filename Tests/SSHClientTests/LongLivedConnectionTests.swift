import Foundation
import RWSTestSupport
import Testing

@_spi(Benchmarks) @testable import SSHClient

/// A connection left open for days: its keepalives leave nothing behind in libssh2, and a
/// shortened version of the 2-hour soak (`scripts/bench soak-days`) keeps the suite honest.
@Suite(.serialized)
struct LongLivedConnectionTests {
    @Test(arguments: ServerKind.allCases)
    func keepaliveRepliesAreTakenOffTheSessionsQueue(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection(adjusting: { $0.keepaliveInterval = .seconds(1) }) { connection in
            let shell = try await connection.openShell()
            let reader = Task { for try await _ in shell.output {} }
            try await Task.sleep(for: .milliseconds(3500))  // idle: a probe every second of silence
            let idle = try await connection.keepaliveState()
            #expect(idle.answered >= 2, "probes answered: \(idle.answered)")
            #expect(idle.replyQueued == false)
            // libssh2's own keepalive, as rws sent it before: its reply stays queued (the check can fail).
            try await connection.sendKeepalives(.globalRequest, count: 3)
            _ = try await connection.run("true")
            #expect(try await connection.keepaliveState().replyQueued == true)
            try await shell.close()
            reader.cancel()
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aBurstOfProbesIsAnsweredAndLeavesNothingQueued(kind: ServerKind) async throws {
        try await SharedTestServer.get(kind).withConnection { connection in
            let shell = try await connection.openShell()
            let reader = Task { for try await _ in shell.output {} }
            let before = try await connection.keepaliveState().answered
            try await connection.sendKeepalives(.probe, count: 2000)
            let after = try await connection.keepaliveState()
            #expect(after.answered - before == 2000)
            #expect(after.replyQueued == false)
            #expect(try await connection.run("echo still").stdoutText == "still\n")
            #expect(connection.statistics.channelsOpened <= 3, "probes are not channels: \(connection.statistics)")
            try await shell.close()
            reader.cancel()
        }
    }

    /// `rws-bench soak` for 30 s with the link cut (all traffic stopped) for 3 s twice: a shell
    /// typed into, a follow of a growing file, execs, SFTP stats and reads; no failure, every
    /// follow line once, fds/threads/RSS within the soak's bounds, nothing left on the box.
    ///
    /// The same figures on both servers: on a dropbear that ends the connection when a command
    /// exits while another waits for its command (docs/servers.md), the soak runs its commands
    /// one at a time, as rws advises (`SoakExecTurns`).
    @Test(arguments: ServerKind.allCases)
    func aShortSoakThroughLinkCutsLosesNothingRepeatsNothingAndLeavesNothing(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        let run = try await RWSBench.run(
            ["soak", "--duration", "30", "--execs", "600", "--reads", "60", "--cut-every", "10", "--cut-length", "3", "--sample", "2"],
            environment: [
                "BENCH_HOST": "127.0.0.1", "BENCH_PORT": "\(server.port)", "BENCH_USER": server.user, "BENCH_KEY": server.clientKeyPath,
                "BENCH_KNOWN_HOSTS": server.knownHostsPath, "BENCH_MAX_CHANNELS": "10", "PATH": "/usr/bin:/bin",
            ])
        let (log, summaryData) = (run.log, run.stdout)
        let parsed = try? JSONSerialization.jsonObject(with: summaryData) as? [String: Any]
        let summary = try #require(parsed, "no summary (exit \(run.status)); log:\n\(log.prefix(6000))")
        #expect(run.status == 0, "problems: \(summary["problems"] ?? [])\n\(log.suffix(3000))")
        #expect(summary["failures"] as? Int == 0)
        #expect((summary["followLines"] as? Int ?? 0) >= 20, "follow lines: \(summary["followLines"] ?? "none")")
        #expect(log.components(separatedBy: "link cut at").count - 1 == 2, "\(log.suffix(2000))")
    }
}
