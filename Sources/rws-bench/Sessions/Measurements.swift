import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient

/// One line of the result table.
struct Row {
    var step: String
    var seconds: Double
    var bytes: Int?

    static func listing(_ name: String, _ sessions: RemoteSessions) async throws -> Row {
        let (listing, elapsed) = try await measured { try await sessions.listing() }
        let stats = listing.statistics
        let detail =
            "\(listing.sessions.count) sessions; \(stats.commands) commands, \(stats.filesRead) read, \(stats.filesGrown) grown, "
            + "\(stats.filesWidened) widened, \(stats.tailsGrown) tails grown, \(stats.cacheHits) from cache"
        return Row(step: "\(name): \(detail)", seconds: elapsed, bytes: stats.bytesTransferred)
    }

    static func table(_ rows: [Row], naiveBytes: Int) -> String {
        var table = MarkdownTable(["step", "wall time", "bytes transferred", "% of all bytes"])
        for row in rows {
            let bytes = row.bytes.map { String(format: "%.2f MB", Double($0) / 1e6) } ?? "–"
            let share = row.bytes.map { String(format: "%.2f %%", 100 * Double($0) / Double(naiveBytes)) } ?? "–"
            table.add([row.step, String(format: "%.3f s", row.seconds), bytes, share])
        }
        return table.description + "\n"
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
        return (seconds(since: started), bytes)
    }

    /// OpenSSH's `sftp -b` with a recursive `get` of the projects folder into a temporary folder.
    static func sftpGetEveryFile(_ server: TestSSHServer, folder: String) throws -> (seconds: Double, bytes: Int) {
        let target = server.directory.appendingPathComponent("sftp-copy").path
        let batch = server.directory.appendingPathComponent("sftp-batch").path
        try "get -r \(folder) \(target)\n".write(toFile: batch, atomically: true, encoding: .utf8)
        let seconds = try clocked {
            try Shell.run("/usr/bin/sftp", ["-q", "-b", batch, "-P", String(server.port)] + server.openSSHOptions + [server.login])
        }
        try? FileManager.default.removeItem(atPath: target)
        return (seconds, 0)
    }
}

/// Appends a few lines to ten sessions, as ten live sessions would.
enum Grow {
    static func tenFiles(_ history: SyntheticHistory) throws {
        for (index, file) in history.files.dropFirst(1).prefix(10).enumerated() {
            let text = String(repeating: "more ", count: 100)
            try append((0..<20).map { userRecord(uuid: "grow-\(index)-\($0)", session: file.id, day: 1, text: text) }, to: file.path)
        }
    }

    /// A user message record as Claude Code writes it, on 2027-01-DAY.
    static func userRecord(uuid: String, session: String, day: Int, text: String) -> String {
        #"{"type":"user","uuid":"\#(uuid)","parentUuid":null,"sessionId":"\#(session)","#
            + #""timestamp":"2027-01-0\#(day)T00:00:00.000Z","message":{"role":"user","content":"\#(text)"}}"#
    }

    /// Appends `lines` to the file at `path`, as a live session would.
    static func append(_ lines: [String], to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(lines.map { $0 + "\n" }.joined().utf8))
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
            let started = ContinuousClock.now
            try Grow.append([Grow.userRecord(uuid: "follow-\(index)", session: file.id, day: 2, text: "ping \(index)")], to: file.path)
            while let event = try await iterator.next() {
                if case .conversation(.added) = event { break }
            }
            latencies.append(seconds(since: started))
        }
        try await stream.stop()  // before the caller closes the connection: a close does not wait for it
        return latencies
    }
}
