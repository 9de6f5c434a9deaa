import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient

/// `rws-bench sessions` (scripts/bench sessions): remote session browsing on a throwaway sshd
/// against a synthetic history of 1,000 sessions (~1 GB) made from the real corpus: cold, warm
/// and after-growth listings, loading the 100 MB session, `--last 50` of a 300 MB one and follow
/// latency, against reading every file in full (`cat` over exec, OpenSSH's `sftp -b` `get -r`).
/// Prints a Markdown table.
enum SessionsBenchmark {
    static func claude(_ server: TestSSHServer) -> String { server.remoteHome + "/.claude" }

    static func cacheFile(_ server: TestSSHServer) -> URL { server.directory.appendingPathComponent("client-cache/sessions.cache") }

    /// Writes a history of `count` sessions, about `totalBytes` (one session of 100 MB), into the server's home.
    static func writeHistory(_ server: TestSSHServer, count: Int = 1_000, totalBytes: Int = 1_000_000_000) throws -> SyntheticHistory {
        print("writing the synthetic history…")
        let history = try SyntheticHistory.write(
            into: claude(server) + "/projects", corpus: claudeCorpus, count: count, totalBytes: totalBytes, bigBytes: 100_000_000)
        print("\(history.files.count) sessions, \(history.totalBytes / 1_000_000) MB\n")
        return history
    }

    /// The sessions of the server's history, listed through a cache file.
    static func cachedSessions(_ connection: SSHConnection, _ server: TestSSHServer) -> RemoteSessions {
        RemoteSessions(
            connection: connection, locations: WorkspaceLocations(claudeDirectories: [claude(server)]),
            cache: SessionListingCache(fileURL: cacheFile(server)))
    }

    /// The references: every file of the history read in full, by `cat` over exec and by OpenSSH's `sftp -b` `get -r`.
    static func naiveRows(_ connection: SSHConnection, _ server: TestSSHServer, _ history: SyntheticHistory) async throws -> [Row] {
        let folder = claude(server) + "/projects"
        let cat = try await Naive.catEveryFile(connection, folder: folder)
        let sftp = try Naive.sftpGetEveryFile(server, folder: folder)
        return [
            Row(step: "naive: cat every file over exec", seconds: cat.seconds, bytes: cat.bytes),
            Row(step: "naive: sftp get of every file (OpenSSH sftp -b)", seconds: sftp.seconds, bytes: history.totalBytes),
        ]
    }

    /// A cached listing with nothing changed (median of 5), then one after 10 files grew.
    static func warmRows(_ sessions: RemoteSessions, _ history: SyntheticHistory) async throws -> [Row] {
        var warm: [Row] = []
        for _ in 0..<5 { warm.append(try await Row.listing("warm listing (nothing changed), median of 5", sessions)) }
        try Grow.tenFiles(history)
        return [warm.sorted { $0.seconds < $1.seconds }[2], try await Row.listing("listing after 10 files grew", sessions)]
    }

    static func run(server: TestSSHServer) async throws {
        let history = try writeHistory(server)
        var rows: [Row] = []
        try await server.withConnection(maxChannels: 10) { connection in
            rows += try await naiveRows(connection, server, history)
            let sessions = cachedSessions(connection, server)
            let narrow = RemoteSessions(
                connection: connection, locations: sessions.locations, cache: nil,
                options: SessionListingOptions(window: 8_192, widenedWindow: 8_192))
            rows.append(try await Row.listing("cold listing, 8 KiB windows only (no widening, no cache file)", narrow))
            rows.append(try await Row.listing("cold listing (no cache)", sessions))
            let roundTrip = ContinuousClock.now
            _ = try await connection.run("true")
            rows.append(Row(step: "for reference: one `true` command round trip", seconds: seconds(since: roundTrip), bytes: nil))
            rows += try await warmRows(sessions, history)

            let big = history.big!
            for (name, compression) in [
                ("automatic: measured, raw on loopback", TransferCompression.automatic), ("gzip -6", .gzip(level: 6)),
            ] {
                let started = ContinuousClock.now
                let loaded = try await sessions.load(
                    try await sessions.findSession(big.id), options: SessionLoadOptions(compression: compression))
                let step =
                    "load the \(big.size / 1_000_000) MB session, \(name) (\(loaded.conversation.entries.count) entries; bytes moved)"
                rows.append(Row(step: step, seconds: seconds(since: started), bytes: loaded.bytesTransferred))
            }

            // `--last 50` of a 300 MB session: in a Claude folder of its own, so the listings above keep their history.
            let huge = try SyntheticHistory.write(
                into: server.remoteHome + "/.claude-huge/projects", corpus: claudeCorpus, count: 2, totalBytes: 300_100_000,
                bigBytes: 300_000_000
            ).big!
            let hugeSessions = RemoteSessions(
                connection: connection, locations: WorkspaceLocations(claudeDirectories: [server.remoteHome + "/.claude-huge"]), cache: nil)
            var lastFifty: [Double] = []
            var lastBytes = 0
            for _ in 0..<5 {
                let listing = try await hugeSessions.findSession(huge.id)
                let started = ContinuousClock.now
                let loaded = try await hugeSessions.load(listing, options: SessionLoadOptions(lastMessages: 50))
                lastFifty.append(seconds(since: started))
                lastBytes = loaded.bytesTransferred
            }
            rows.append(
                Row(
                    step: "last 50 messages of a \(huge.size / 1_000_000) MB session (`rws history --last 50`, after its listing), "
                        + "median of 5 (max \(String(format: "%.3f", lastFifty.max()!)) s)",
                    seconds: lastFifty.sorted()[2], bytes: lastBytes))

            let latencies = try await FollowLatency.measure(sessions, file: history.files[1], appends: 10)
            rows.append(
                Row(
                    step: "follow latency, median of 10 appends (max \(String(format: "%.3f", latencies.max()!)) s)",
                    seconds: latencies.sorted()[latencies.count / 2], bytes: nil))
        }
        print(Row.table(rows, naiveBytes: history.totalBytes))
    }
}
