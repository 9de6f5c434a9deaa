import Foundation
import RWSTestSupport
import RemoteWorkspace
import SessionHistory
import Testing

@Suite struct SessionEditingTests {
    static let ef958 = "ef958aa1-0e93-49f0-bb71-150f63befcd1"

    @Test(arguments: ScriptPlace.allCases)
    func renameAppendsExactlyOneLineAndTheListingShowsTheTitle(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: ["ef958aa1", "03eb5929"])
        let path = sandbox.claudeProjects + "/-experiments-worktrees/\(Self.ef958).jsonl"
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        try await sandbox.withSessions { sessions in
            _ = try await sessions.listSessions()
            try await sessions.renameSession("ef958", title: "Worktree \"experiments\" ✓")
            let listed = try await sessions.listSessions().first { $0.id == Self.ef958 }
            #expect(listed?.summary.title == "Worktree \"experiments\" ✓")
            #expect(listed?.summary.titleSource == .customTitle)
        }
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(after.prefix(before.count) == before)
        let added = String(decoding: after.dropFirst(before.count), as: UTF8.self)
        #expect(added == #"{"type":"custom-title","customTitle":"Worktree \"experiments\" ✓","sessionId":"\#(Self.ef958)"}"# + "\n")
        #expect(
            SessionSummarizer.summarize(
                fileName: "\(Self.ef958).jsonl", fileSize: after.count, head: [UInt8](after.prefix(65_536)),
                tail: [UInt8](after.suffix(65_536))
            ).title == "Worktree \"experiments\" ✓")
    }

    @Test(arguments: ScriptPlace.allCases)
    func renameWaitsForALineBeingWrittenAndRefusesAnEmptyTitle(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        let id = "55555555-0000-0000-0000-000000000005"
        let path = try sandbox.writeSession(id, lines: [Records.user("hello", uuid: "u1", parent: nil, session: id)])
        try await sandbox.withSessions { sessions in
            await #expect(throws: RemoteSessionError.invalidTitle(reason: "it is empty")) {
                try await sessions.renameSession(id, title: "  ")
            }
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(#"{"type":"user","#.utf8))
            await #expect(throws: RemoteSessionError.self) { try await sessions.renameSession(id, title: "late") }
            try handle.close()
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasSuffix(#"{"type":"user","#))
    }

    /// A writer on the box writing each line in two pieces, 40 ms apart, until told to stop, and
    /// logging the clock before and after each piece to a third file (bash's `EPOCHREALTIME`).
    static let twoPieceWriter = #"""
        i=0
        while [ ! -e "$2" ]; do
          b=$EPOCHREALTIME; printf '{"type":"progress","n":%d,' "$i" >> "$1"; echo "$b $EPOCHREALTIME" >> "$3"
          sleep 0.04
          b=$EPOCHREALTIME; printf '"piece":2}\n' >> "$1"; echo "$b $EPOCHREALTIME" >> "$3"
          sleep 0.04
          i=$((i + 1))
        done
        """#

    /// The quiet time rename's script waits for before it appends (`SessionEditing.appendScript`).
    static let restInterval = 0.2

    /// The stretches of at least `length` seconds in which the writer may have written nothing: from
    /// before one piece's write to after the next one's (or forever after the last), so each one
    /// holds the true pause between the two writes.
    static func quietStretches(inPaceLog log: String, atLeast length: Double) -> [ClosedRange<Double>] {
        let writes = log.split(separator: "\n").compactMap { line -> (before: Double, after: Double)? in
            let times = line.replacingOccurrences(of: ",", with: ".").split(separator: " ").compactMap { Double($0) }
            return times.count == 2 ? (times[0], times[1]) : nil
        }
        let stretches = zip(writes, writes.dropFirst().map(\.after) + [.infinity]).map { $0.before...$1 }
        return stretches.filter { $0.upperBound - $0.lowerBound >= length }
    }

    @Test(arguments: ScriptPlace.allCases)
    func renameRefusesWhileAWriterAppendsLinesInPiecesAndNeverGluesOntoOne(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        let id = "55555555-0000-0000-0000-000000000006"
        let path = try sandbox.writeSession(id, lines: [Records.user("hello", uuid: "u1", parent: nil, session: id)])
        let stop = sandbox.root + "/stop-writer"
        let paceLog = sandbox.root + "/writer-pace"
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/bash")
        writer.arguments = ["-c", Self.twoPieceWriter, "writer", path, stop, paceLog]
        try writer.run()
        defer {
            _ = FileManager.default.createFile(atPath: stop, contents: Data())
            writer.waitUntilExit()
        }
        // Rename refuses while the pieces come less than its rest interval apart; on a busy box the
        // writer itself may pause longer, and an append into such a pause is right, so each
        // accepted attempt is checked against the writer's logged pace.
        var accepted: [(title: String, during: ClosedRange<Double>)] = []
        try await sandbox.withSessions { sessions in
            _ = try await sessions.listSessions()
            for attempt in 0..<3 {
                let started = Date().timeIntervalSince1970
                do {
                    try await sessions.renameSession(id, title: "busy \(attempt)")
                    accepted.append(("busy \(attempt)", started...Date().timeIntervalSince1970))
                } catch {
                    #expect(error as? RemoteSessionError == .sessionBeingWritten(path: path), "attempt \(attempt)")
                }
            }
            _ = FileManager.default.createFile(atPath: stop, contents: Data())
            try await Blocking.onThread { writer.waitUntilExit() }
            try await sessions.renameSession(id, title: "at rest")
        }
        let pauses = Self.quietStretches(inPaceLog: try String(contentsOfFile: paceLog, encoding: .utf8), atLeast: Self.restInterval)
        for attempt in accepted {
            #expect(pauses.contains { $0.overlaps(attempt.during) }, "\(attempt.title) was appended while the writer never paused")
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "")
        for line in lines.dropLast() {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object != nil, "glued or torn line: \(line)")
        }
        let titles = lines.filter { $0.contains("custom-title") }
        #expect(
            titles == (accepted.map(\.title) + ["at rest"]).map { #"{"type":"custom-title","customTitle":"\#($0)","sessionId":"\#(id)"}"# })
        if accepted.count < 3 {
            #expect(lines.filter { $0.contains("\"piece\":2") }.count >= 10, "the writer wrote while rename was refused")
        }
    }

    @Test(arguments: ScriptPlace.allCases)
    func deleteRemovesExactlyTheSessionFileAndItsFolder(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: ["ef958aa1", "03eb5929", "a95fea4a"])
        let project = ".claude/projects/-experiments-worktrees/"
        try FileManager.default.createDirectory(
            atPath: sandbox.root + "/" + project + Self.ef958 + "/tool-results", withIntermediateDirectories: true)
        try Data("output".utf8).write(to: URL(fileURLWithPath: sandbox.root + "/" + project + Self.ef958 + "/tool-results/t1.txt"))
        let before = try sandbox.tree()
        try await sandbox.withSessions { sessions in
            let deleted = try await sessions.deleteSession("ef958aa1")
            #expect(deleted.id == Self.ef958)
            #expect(try await sessions.listSessions().contains { $0.id == Self.ef958 } == false)
            await #expect(throws: RemoteSessionError.sessionNotFound(id: Self.ef958)) { try await sessions.deleteSession(Self.ef958) }
        }
        let removed = Set(before).subtracting(try sandbox.tree())
        #expect(
            removed == [
                project + Self.ef958 + ".jsonl", project + Self.ef958, project + Self.ef958 + "/subagents",
                project + Self.ef958 + "/subagents/agent-a4ca7529859c158c2.jsonl",
                project + Self.ef958 + "/subagents/agent-a4ca7529859c158c2.meta.json",
                project + Self.ef958 + "/tool-results", project + Self.ef958 + "/tool-results/t1.txt",
            ])
        #expect(Set(try sandbox.tree()).isSubset(of: Set(before)))
    }

    @Test(arguments: ScriptPlace.allCases)
    func sessionIdsMayBeShortenedToAUniquePrefix(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        for id in ["66666666-aaaa-0000-0000-000000000001", "66666666-bbbb-0000-0000-000000000002"] {
            try sandbox.writeSession(id, lines: [Records.user("hello \(id)", uuid: "u1", parent: nil, session: id)])
        }
        try await sandbox.withSessions { sessions in
            let found = try await sessions.findSession("66666666-b")
            #expect(found.id == "66666666-bbbb-0000-0000-000000000002")
            await #expect(throws: RemoteSessionError.self) { try await sessions.findSession("66666666") }
            await #expect(throws: RemoteSessionError.sessionNotFound(id: "7")) { try await sessions.findSession("7") }
        }
    }
}
