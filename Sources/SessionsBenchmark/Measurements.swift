import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient

/// One line of the result table.
struct Row {
    var step: String
    var seconds: Double
    var bytes: Int?

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func listing(_ name: String, _ sessions: RemoteSessions) async throws -> Row {
        let started = ContinuousClock.now
        let listing = try await sessions.listing()
        let seconds = seconds(since: started)
        let stats = listing.statistics
        let detail =
            "\(listing.sessions.count) sessions; \(stats.commands) commands, \(stats.filesRead) read, \(stats.filesGrown) grown, "
            + "\(stats.filesWidened) widened, \(stats.tailsGrown) tails grown, \(stats.cacheHits) from cache"
        return Row(step: "\(name): \(detail)", seconds: seconds, bytes: stats.bytesTransferred)
    }

    static func table(_ rows: [Row], naiveBytes: Int) -> String {
        var text = "| step | wall time | bytes transferred | % of all bytes |\n|---|---|---|---|\n"
        for row in rows {
            let bytes = row.bytes.map { String(format: "%.2f MB", Double($0) / 1e6) } ?? "–"
            let share = row.bytes.map { String(format: "%.2f %%", 100 * Double($0) / Double(naiveBytes)) } ?? "–"
            text += "| \(row.step) | \(String(format: "%.3f s", row.seconds)) | \(bytes) | \(share) |\n"
        }
        return text
    }
}

/// The naive way: every byte of every file crosses the connection.
enum Naive {
    /// `cat` of every session file in one exec command, streamed and counted.
    static func catEveryFile(_ connection: SSHConnection, folder: String) async throws -> (seconds: Double, bytes: Int) {
        let started = ContinuousClock.now
        let command = try connection.stream("find \(try ShellQuoting.quotePath(folder)) -name '*.jsonl' -exec cat {} +")
        var bytes = 0
        for try await event in command.output {
            if case .stdout(let chunk) = event { bytes += chunk.count }
        }
        _ = try await command.exitStatus()
        return (Row.seconds(since: started), bytes)
    }

    /// OpenSSH's `sftp -b` with a recursive `get` of the projects folder into a temporary folder.
    static func sftpGetEveryFile(_ server: TestSSHServer, folder: String) throws -> (seconds: Double, bytes: Int) {
        let target = server.directory.appendingPathComponent("sftp-copy").path
        let batch = server.directory.appendingPathComponent("sftp-batch").path
        try "get -r \(folder) \(target)\n".write(toFile: batch, atomically: true, encoding: .utf8)
        let started = ContinuousClock.now
        try Shell.run(
            "/usr/bin/sftp",
            [
                "-q", "-b", batch, "-i", server.clientKeyPath, "-P", String(server.port),
                "-o", "UserKnownHostsFile=\(server.knownHostsPath)", "-o", "StrictHostKeyChecking=yes",
                "-F", "/dev/null", "\(server.user)@127.0.0.1",
            ])
        let seconds = Row.seconds(since: started)
        try? FileManager.default.removeItem(atPath: target)
        return (seconds, 0)
    }
}

/// Appends a few lines to ten sessions, as ten live sessions would.
enum Grow {
    static func tenFiles(_ history: SyntheticHistory) throws {
        for (index, file) in history.files.dropFirst(1).prefix(10).enumerated() {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file.path))
            try handle.seekToEnd()
            for line in 0..<20 {
                let text =
                    #"{"type":"user","uuid":"grow-\#(index)-\#(line)","parentUuid":null,"sessionId":"\#(file.id)","#
                    + #""timestamp":"2027-01-01T00:00:00.000Z","message":{"role":"user","#
                    + #""content":"\#(String(repeating: "more ", count: 100))"}}"#
                try handle.write(contentsOf: Data((text + "\n").utf8))
            }
            try handle.close()
        }
    }
}

/// How long an appended line takes to arrive as a follow event.
enum FollowLatency {
    static func measure(_ sessions: RemoteSessions, file: (path: String, id: String, size: Int), appends: Int) async throws -> [Double] {
        let stream = try await sessions.followSession(file.id)
        var iterator = stream.makeAsyncIterator()
        var latencies: [Double] = []
        for index in 0..<appends {
            try await Task.sleep(for: .milliseconds(Int.random(in: 100...400)))
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file.path))
            try handle.seekToEnd()
            let started = ContinuousClock.now
            let line =
                #"{"type":"user","uuid":"follow-\#(index)","parentUuid":null,"sessionId":"\#(file.id)","#
                + #""timestamp":"2027-01-02T00:00:00.000Z","message":{"role":"user","content":"ping \#(index)"}}"#
            try handle.write(contentsOf: Data((line + "\n").utf8))
            try handle.close()
            while let event = try await iterator.next() {
                if case .conversation(.added) = event { break }
            }
            latencies.append(Row.seconds(since: started))
        }
        try await stream.stop()  // before the caller closes the connection: a close does not wait for it
        return latencies
    }
}
