import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient

/// Listing a 4,000-session, ~4 GB history (targets: cold ≤ 3 s, warm ≤ 200 ms), beside reading
/// every file in full over exec, in the same run. Needs ~4.5 GB free in the temporary folder.
enum BigHistoryListing {
    static func run(server: TestSSHServer, corpus: URL, claude: String, cacheFile: URL) async throws {
        print("writing the synthetic history…")
        let history = try SyntheticHistory.write(
            into: claude + "/projects", corpus: corpus, count: 4_000, totalBytes: 4_000_000_000, bigBytes: 100_000_000)
        print("\(history.files.count) sessions, \(history.totalBytes / 1_000_000) MB\n")
        var rows: [Row] = []
        try await server.withConnection(maxChannels: 10) { connection in
            let naive = try await Naive.catEveryFile(connection, folder: claude + "/projects")
            rows.append(Row(step: "naive: cat every file over exec", seconds: naive.seconds, bytes: naive.bytes))
            let sessions = RemoteSessions(
                connection: connection, locations: WorkspaceLocations(claudeDirectories: [claude]),
                cache: SessionListingCache(fileURL: cacheFile))
            rows.append(try await Row.listing("cold listing (no cache)", sessions))
            var warm: [Row] = []
            for _ in 0..<5 { warm.append(try await Row.listing("warm listing (nothing changed), median of 5", sessions)) }
            rows.append(warm.sorted { $0.seconds < $1.seconds }[2])
            try Grow.tenFiles(history)
            rows.append(try await Row.listing("listing after 10 files grew", sessions))
        }
        print(Row.table(rows, naiveBytes: history.totalBytes))
    }
}
