import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient

/// `rws-bench big-history` (scripts/bench big-history): listing a 4,000-session, ~4 GB history
/// (targets: cold ≤ 3 s, warm ≤ 200 ms), beside reading every file in full (`cat` over exec,
/// OpenSSH's `sftp -b` `get -r`) in the same run. Needs ~8.5 GB free in the temporary folder.
enum BigHistoryListing {
    static func run(server: TestSSHServer) async throws {
        let history = try SessionsBenchmark.writeHistory(server, count: 4_000, totalBytes: 4_000_000_000)
        var rows: [Row] = []
        try await server.withConnection(maxChannels: 10) { connection in
            rows += try await SessionsBenchmark.naiveRows(connection, server, history)
            let sessions = SessionsBenchmark.cachedSessions(connection, server)
            rows.append(try await Row.listing("cold listing (no cache)", sessions))
            rows += try await SessionsBenchmark.warmRows(sessions, history)
        }
        print(Row.table(rows, naiveBytes: history.totalBytes))
    }
}
