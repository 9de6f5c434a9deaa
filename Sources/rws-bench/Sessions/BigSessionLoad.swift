import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient

/// `rws-bench load` (scripts/bench load): loading the synthetic history's 99 MB session on loopback (target: ≤ 1.0 s), ten
/// times, each with a new `RemoteSessions` (so each measures the link again), beside reading
/// the same file raw with `cat` over the same connection. p50, p99 and max of each.
enum BigSessionLoad {
    static let runs = 10

    static func run(server: TestSSHServer) async throws {
        let claude = SessionsBenchmark.claude(server)
        print("writing the session…")
        let history = try SyntheticHistory.write(
            into: claude + "/projects", corpus: claudeCorpus, count: 2, totalBytes: 100_100_000, bigBytes: 100_000_000)
        let big = history.big!
        print("one session of \(big.size / 1_000_000) MB\n")
        var rows: [(String, [Double])] = []
        try await server.withConnection(maxChannels: 10) { connection in
            let locations = WorkspaceLocations(claudeDirectories: [claude])
            let listing = try await RemoteSessions(connection: connection, locations: locations, cache: nil).findSession(big.id)
            var cat: [Double] = []
            var loads: [Double] = []
            var entries = 0
            for _ in 0..<runs {
                let started = ContinuousClock.now
                let command = try connection.stream("cat \(try ShellQuoting.quotePath(listing.file.path))")
                for try await _ in command.output {}
                _ = try await command.exitStatus()
                cat.append(seconds(since: started))
                let sessions = RemoteSessions(connection: connection, locations: locations, cache: nil)
                loads += try await timed(1) { entries = try await sessions.load(listing).conversation.entries.count }
            }
            rows.append(("reference: `cat` of the file over the same connection", cat))
            rows.append(("load the \(big.size / 1_000_000) MB session, automatic (\(entries) entries)", loads))
        }
        var table = MarkdownTable(["step (loopback, \(runs) runs alternating)", "p50 s", "p99 s", "max s"])
        for (step, samples) in rows { table.add([step, percentileCells(samples, unit: 1, digits: 3)]) }
        print(table)
    }
}
