import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient

/// `rws-bench slow-link` (scripts/bench slow-link): loading one 50 MB session over a 10 Mbit/s link with 50 ms round trips (a `FaultProxy`
/// between rws and the test sshd): the last 50 messages, the whole file raw and gzip-compressed,
/// and a reload after 100 KB were appended.
enum SlowLinkLoad {
    static func run(server: TestSSHServer) async throws {
        let claude = server.remoteHome + "/.claude-slow"
        print("writing a 50 MB session…")
        let history = try SyntheticHistory.write(
            into: claude + "/projects", corpus: claudeCorpus, count: 2, totalBytes: 50_100_000, bigBytes: 50_000_000)
        let big = history.big!
        let proxy = try FaultProxy(targetPort: server.port, link: .init(bytesPerSecond: 1_250_000, latency: .milliseconds(25)))
        defer { proxy.stop() }
        let connection = try await SSHConnection.connect(try server.configuration(through: proxy))
        var rows: [Row] = []
        do {
            let sessions = RemoteSessions(connection: connection, locations: WorkspaceLocations(claudeDirectories: [claude]), cache: nil)
            let listing = try await sessions.findSession(big.id)
            let roundTrip = ContinuousClock.now
            _ = try await connection.run("true")
            rows.append(Row(step: "for reference: one `true` command round trip", seconds: seconds(since: roundTrip), bytes: nil))
            for level in [6, 1] {
                rows.append(
                    try await measure(
                        "last 50 messages, gzip -\(level)", sessions, listing,
                        SessionLoadOptions(lastMessages: 50, compression: .gzip(level: level))
                    ))
            }
            rows.append(
                try await measure("last 50 messages, raw", sessions, listing, SessionLoadOptions(lastMessages: 50, compression: .none)))
            // A fresh RemoteSessions: nothing measured yet, so the load probes the link first.
            let fresh = RemoteSessions(connection: connection, locations: sessions.locations, cache: nil)
            let automatic = ContinuousClock.now
            let measured = try await fresh.load(listing, options: SessionLoadOptions())
            rows.append(
                Row(
                    step: "whole \(big.size / 1_000_000) MB session, automatic (probe, then the level the link calls for)",
                    seconds: seconds(since: automatic), bytes: measured.bytesTransferred))
            rows.append(
                try await measure("last 50 messages, automatic (link measured)", fresh, listing, SessionLoadOptions(lastMessages: 50)))
            var whole: RemoteSession?
            for level in [6, 1] {
                let started = ContinuousClock.now
                let loaded = try await sessions.load(listing, options: SessionLoadOptions(compression: .gzip(level: level)))
                rows.append(
                    Row(
                        step: "whole \(big.size / 1_000_000) MB session, gzip -\(level) (\(loaded.conversation.messageCount) messages)",
                        seconds: seconds(since: started), bytes: loaded.bytesTransferred))
                whole = loaded
            }
            let appended = try append(to: big.path, bytes: 100_000)
            let started = ContinuousClock.now
            let reloaded = try await sessions.reload(whole!)
            rows.append(
                Row(
                    step: "reload after \(appended) bytes were appended (listing + read)", seconds: seconds(since: started),
                    bytes: reloaded.bytesTransferred))
            print("(whole file raw at 1,250,000 B/s would take \(String(format: "%.1f", Double(big.size) / 1_250_000)) s)\n")
        } catch {
            await connection.close()
            throw error
        }
        await connection.close()
        print(Row.table(rows, naiveBytes: big.size))
    }

    private static func measure(
        _ name: String, _ sessions: RemoteSessions, _ listing: RemoteSessionListing,
        _ options: SessionLoadOptions
    ) async throws -> Row {
        let started = ContinuousClock.now
        let loaded = try await sessions.load(listing, options: options)
        return Row(
            step: "\(name) (\(loaded.conversation.messageCount) shown, \(loaded.byteCount / 1_000) KB of the file read)",
            seconds: seconds(since: started), bytes: loaded.bytesTransferred)
    }

    /// Appends the file's own first lines, about `bytes` of them; returns how many were appended.
    private static func append(to path: String, bytes: Int) throws -> Int {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let head = try handle.read(upToCount: bytes) ?? Data()
        let lines = head.prefix(through: head.lastIndex(of: UInt8(ascii: "\n")) ?? head.startIndex)
        try handle.seekToEnd()
        try handle.write(contentsOf: lines)
        return lines.count
    }
}
