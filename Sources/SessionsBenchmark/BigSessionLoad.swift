import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient

/// Loading the synthetic history's 99 MB session on loopback (target: ≤ 1.0 s), ten
/// times, each with a new `RemoteSessions` (so each measures the link again), beside reading
/// the same file raw with `cat` over the same connection. p50, p99 and max of each.
enum BigSessionLoad {
    static let runs = 10

    static func run(server: TestSSHServer, corpus: URL, claude: String) async throws {
        print("writing the session…")
        let history = try SyntheticHistory.write(
            into: claude + "/projects", corpus: corpus, count: 2, totalBytes: 100_100_000, bigBytes: 100_000_000)
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
                cat.append(Row.seconds(since: started))
                let sessions = RemoteSessions(connection: connection, locations: locations, cache: nil)
                let loadStarted = ContinuousClock.now
                entries = try await sessions.load(listing).conversation.entries.count
                loads.append(Row.seconds(since: loadStarted))
            }
            rows.append(("reference: `cat` of the file over the same connection", cat))
            rows.append(("load the \(big.size / 1_000_000) MB session, automatic (\(entries) entries)", loads))
        }
        print("| step (loopback, \(runs) runs alternating) | p50 s | p99 s | max s |\n|---|---|---|---|")
        for (step, samples) in rows {
            let sorted = samples.sorted()
            let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
            print(String(format: "| %@ | %.3f | %.3f | %.3f |", step, sorted[sorted.count / 2], p99, sorted.last!))
        }
    }
}
