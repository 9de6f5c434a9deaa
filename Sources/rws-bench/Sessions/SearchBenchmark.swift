import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient

/// `rws-bench search` (scripts/bench search): `RemoteSessions.search` over the
/// synthetic ~1 GB history, a rare word planted in three sessions and a common one, cold (no
/// listing cache: the titles' listing runs beside the grep) and warm, against grep run by hand
/// on the box and against moving every byte.
enum SearchBenchmark {
    static let rareWord = "quartzibar"

    static func run(server: TestSSHServer) async throws {
        let history = try SessionsBenchmark.writeHistory(server)
        let claude = SessionsBenchmark.claude(server)
        for file in [history.files[5], history.files[500], history.files[900]] {
            try Grow.append(
                [Grow.userRecord(uuid: "rare-\(file.id)", session: file.id, day: 3, text: "check the \(rareWord) module")], to: file.path)
        }
        var rows: [Row] = []
        var tails: [String] = []
        try await server.withConnection(maxChannels: 10) { connection in
            let projects = try ShellQuoting.quotePath(claude + "/projects")
            for word in [rareWord, "function"] {
                let started = ContinuousClock.now
                let grep = try await connection.run(
                    "find \(projects) -name '*.jsonl' -exec env LC_ALL=C grep -l -i -F \(word) {} + | wc -l")
                let files = grep.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
                rows.append(
                    Row(
                        step: "reference: `grep -l -i -F \(word)` of every file on the box (\(files) files)",
                        seconds: seconds(since: started), bytes: nil))
            }
            for (word, label) in [(rareWord, "rare word (3 sessions)"), ("function", "common word"), ("FÉVR", "accented word, other case")]
            {
                var cold: [Double] = []
                var coldBytes = 0
                var found = 0
                for run in 0..<3 {
                    let sessions = RemoteSessions(
                        connection: connection, locations: WorkspaceLocations(claudeDirectories: [claude]),
                        cache: SessionListingCache(
                            fileURL: server.directory.appendingPathComponent("search-cache-\(word)-\(run)/sessions.cache")))
                    let (result, elapsed) = try await measured { try await sessions.search(SessionSearchQuery(.text(word))) }
                    cold.append(elapsed)
                    coldBytes = result.bytesTransferred
                    found = result.hits.count
                }
                rows.append(
                    Row(
                        step: "search, \(label), cold (no listing cache), median of 3: \(found) messages", seconds: median(cold),
                        bytes: coldBytes))
                let sessions = RemoteSessions(
                    connection: connection, locations: WorkspaceLocations(claudeDirectories: [claude]),
                    cache: SessionListingCache(fileURL: server.directory.appendingPathComponent("search-cache-\(word)-0/sessions.cache")))
                var warm: [Double] = []
                var warmBytes = 0
                for _ in 0..<20 {
                    let (result, elapsed) = try await measured { try await sessions.search(SessionSearchQuery(.text(word))) }
                    warm.append(elapsed)
                    warmBytes = result.bytesTransferred
                }
                rows.append(Row(step: "search, \(label), warm listing cache, median of 20", seconds: median(warm), bytes: warmBytes))
                tails.append("\(label) warm: p50 | p99 | max " + percentileCells(warm, unit: 1, digits: 3) + " s")
            }
        }
        print(Row.table(rows, naiveBytes: history.totalBytes))
        print(tails.joined(separator: "\n"))
    }
}
