import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient

// Remote session browsing, measured on a throwaway sshd on 127.0.0.1 against a synthetic
// history of 1,000 sessions (~1 GB) made from the real corpus. Prints a Markdown table.
// Run with scripts/bench-sessions; `SessionsBenchmark slow-link` (scripts/bench-history-remote) measures
// loading one 50 MB session over a slow link instead; `SessionsBenchmark search` measures
// searching every session (SearchBenchmark); `SessionsBenchmark big-history` lists a
// 4,000-session, ~4 GB history (BigHistoryListing); `SessionsBenchmark load` loads the 99 MB
// session ten times beside `cat` (BigSessionLoad).

let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/claude-corpus/jsonl")
let server = try TestSSHServer()
defer { server.stop() }
if CommandLine.arguments.dropFirst().first == "slow-link" {
    try await SlowLinkLoad.run(server: server, corpus: corpus)
    server.stop()
    exit(0)
}
let claude = server.remoteHome + "/.claude"
let cacheFile = server.directory.appendingPathComponent("client-cache/sessions.cache")
if CommandLine.arguments.dropFirst().first == "big-history" {
    try await BigHistoryListing.run(server: server, corpus: corpus, claude: claude, cacheFile: cacheFile)
    server.stop()
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "load" {
    try await BigSessionLoad.run(server: server, corpus: corpus, claude: claude)
    server.stop()
    exit(0)
}

print("writing the synthetic history…")
let history = try SyntheticHistory.write(
    into: claude + "/projects", corpus: corpus, count: 1_000, totalBytes: 1_000_000_000, bigBytes: 100_000_000)
print("\(history.files.count) sessions, \(history.totalBytes / 1_000_000) MB\n")
if CommandLine.arguments.dropFirst().first == "search" {
    try await SearchBenchmark.run(server: server, history: history, claude: claude)
    server.stop()
    exit(0)
}

var rows: [Row] = []
try await server.withConnection(maxChannels: 10) { connection in
    let naive = try await Naive.catEveryFile(connection, folder: claude + "/projects")
    rows.append(Row(step: "naive: cat every file over exec", seconds: naive.seconds, bytes: naive.bytes))
    let sftp = try Naive.sftpGetEveryFile(server, folder: claude + "/projects")
    rows.append(Row(step: "naive: sftp get of every file (OpenSSH sftp -b)", seconds: sftp.seconds, bytes: history.totalBytes))

    let sessions = RemoteSessions(
        connection: connection, locations: WorkspaceLocations(claudeDirectories: [claude]),
        cache: SessionListingCache(fileURL: cacheFile))
    let narrow = RemoteSessions(
        connection: connection, locations: sessions.locations, cache: nil,
        options: SessionListingOptions(window: 8_192, widenedWindow: 8_192))
    rows.append(try await Row.listing("cold listing, 8 KiB windows only (no widening, no cache file)", narrow))
    rows.append(try await Row.listing("cold listing (no cache)", sessions))
    let roundTrip = ContinuousClock.now
    _ = try await connection.run("true")
    rows.append(Row(step: "for reference: one `true` command round trip", seconds: Row.seconds(since: roundTrip), bytes: nil))
    var warm: [Row] = []
    for _ in 0..<5 { warm.append(try await Row.listing("warm listing (nothing changed), median of 5", sessions)) }
    rows.append(warm.sorted { $0.seconds < $1.seconds }[2])
    try Grow.tenFiles(history)
    rows.append(try await Row.listing("listing after 10 files grew", sessions))

    let big = history.big!
    for (name, compression) in [("automatic: measured, raw on loopback", TransferCompression.automatic), ("gzip -6", .gzip(level: 6))] {
        let started = ContinuousClock.now
        let loaded = try await sessions.load(try await sessions.findSession(big.id), options: SessionLoadOptions(compression: compression))
        rows.append(
            Row(
                step: "load the \(big.size / 1_000_000) MB session, \(name) (\(loaded.conversation.entries.count) entries; bytes moved)",
                seconds: Row.seconds(since: started), bytes: loaded.bytesTransferred))
    }

    // `--last 50` of a 300 MB session: in a Claude folder of its own, so the listings above keep their history.
    let huge = try SyntheticHistory.write(
        into: server.remoteHome + "/.claude-huge/projects", corpus: corpus, count: 2, totalBytes: 300_100_000, bigBytes: 300_000_000
    ).big!
    let hugeSessions = RemoteSessions(
        connection: connection, locations: WorkspaceLocations(claudeDirectories: [server.remoteHome + "/.claude-huge"]), cache: nil)
    var lastFifty: [Double] = []
    var lastBytes = 0
    for _ in 0..<5 {
        let listing = try await hugeSessions.findSession(huge.id)
        let started = ContinuousClock.now
        let loaded = try await hugeSessions.load(listing, options: SessionLoadOptions(lastMessages: 50))
        lastFifty.append(Row.seconds(since: started))
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
