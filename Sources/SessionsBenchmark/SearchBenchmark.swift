import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient

/// `SessionsBenchmark search` (scripts/bench-sessions search): `RemoteSessions.search` over the
/// synthetic ~1 GB history, a rare word planted in three sessions and a common one, cold (no
/// listing cache: the titles' listing runs beside the grep) and warm, against grep run by hand
/// on the box and against moving every byte.
enum SearchBenchmark {
    static let rareWord = "quartzibar"

    static func run(server: TestSSHServer, history: SyntheticHistory, claude: String) async throws {
        for file in [history.files[5], history.files[500], history.files[900]] {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file.path))
            try handle.seekToEnd()
            let line =
                #"{"type":"user","uuid":"rare-\#(file.id)","parentUuid":null,"sessionId":"\#(file.id)","#
                + #""timestamp":"2027-01-03T00:00:00.000Z","message":{"role":"user","content":"check the \#(rareWord) module"}}"#
            try handle.write(contentsOf: Data((line + "\n").utf8))
            try handle.close()
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
                        seconds: Row.seconds(since: started), bytes: nil))
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
                    let started = ContinuousClock.now
                    let result = try await sessions.search(SessionSearchQuery(.text(word)))
                    cold.append(Row.seconds(since: started))
                    coldBytes = result.bytesTransferred
                    found = result.hits.count
                }
                rows.append(
                    Row(
                        step: "search, \(label), cold (no listing cache), median of 3: \(found) messages", seconds: cold.sorted()[1],
                        bytes: coldBytes))
                let sessions = RemoteSessions(
                    connection: connection, locations: WorkspaceLocations(claudeDirectories: [claude]),
                    cache: SessionListingCache(fileURL: server.directory.appendingPathComponent("search-cache-\(word)-0/sessions.cache")))
                var warm: [Double] = []
                var warmBytes = 0
                for _ in 0..<20 {
                    let started = ContinuousClock.now
                    let result = try await sessions.search(SessionSearchQuery(.text(word)))
                    warm.append(Row.seconds(since: started))
                    warmBytes = result.bytesTransferred
                }
                warm.sort()
                rows.append(Row(step: "search, \(label), warm listing cache, median of 20", seconds: warm[10], bytes: warmBytes))
                tails.append(
                    String(format: "%@ warm: p50 %.3f s, p99 %.3f s, max %.3f s", label, warm[10], warm[19], warm[19]))
            }
        }
        print(Row.table(rows, naiveBytes: history.totalBytes))
        print(tails.joined(separator: "\n"))
    }
}
