import Foundation
import RWSTestSupport
import RemoteWorkspace
import SessionHistory
import Testing

@Suite struct SessionEditingTests {
    static let ef958 = "ef958aa1-0e93-49f0-bb71-150f63befcd1"

    @Test(arguments: ScriptPlace.allCases)
    func renameAppendsExactlyOneLineAndTheListingShowsTheTitle(place: ScriptPlace) async throws {
        let sandbox = try SessionSandbox(place: place)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: ["ef958aa1", "03eb5929"])
        let path = sandbox.projects + "/-experiments-worktrees/\(Self.ef958).jsonl"
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
        let sandbox = try SessionSandbox(place: place)
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

    /// A writer on the box writing each line in two pieces, 40 ms apart, until told to stop.
    static let twoPieceWriter = #"""
        i=0
        while [ ! -e "$2" ]; do
          printf '{"type":"progress","n":%d,' "$i" >> "$1"
          sleep 0.04
          printf '"piece":2}\n' >> "$1"
          sleep 0.04
          i=$((i + 1))
        done
        """#

    @Test(arguments: ScriptPlace.allCases)
    func renameRefusesWhileAWriterAppendsLinesInPiecesAndNeverGluesOntoOne(place: ScriptPlace) async throws {
        let sandbox = try SessionSandbox(place: place)
        defer { sandbox.remove() }
        let id = "55555555-0000-0000-0000-000000000006"
        let path = try sandbox.writeSession(id, lines: [Records.user("hello", uuid: "u1", parent: nil, session: id)])
        let stop = sandbox.root + "/stop-writer"
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", Self.twoPieceWriter, "writer", path, stop]
        try writer.run()
        defer {
            _ = FileManager.default.createFile(atPath: stop, contents: Data())
            writer.waitUntilExit()
        }
        try await sandbox.withSessions { sessions in
            _ = try await sessions.listSessions()
            for attempt in 0..<3 {
                await #expect(throws: RemoteSessionError.sessionBeingWritten(path: path), "attempt \(attempt)") {
                    try await sessions.renameSession(id, title: "busy \(attempt)")
                }
            }
            _ = FileManager.default.createFile(atPath: stop, contents: Data())
            try await Blocking.onThread { writer.waitUntilExit() }
            try await sessions.renameSession(id, title: "at rest")
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "")
        for line in lines.dropLast() {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object != nil, "glued or torn line: \(line)")
        }
        #expect(lines.filter { $0.contains("custom-title") } == [#"{"type":"custom-title","customTitle":"at rest","sessionId":"\#(id)"}"#])
        #expect(lines.filter { $0.contains("\"piece\":2") }.count >= 10, "the writer wrote while rename was refused")
    }

    @Test(arguments: ScriptPlace.allCases)
    func deleteRemovesExactlyTheSessionFileAndItsFolder(place: ScriptPlace) async throws {
        let sandbox = try SessionSandbox(place: place)
        defer { sandbox.remove() }
        try sandbox.layOutCorpus(only: ["ef958aa1", "03eb5929", "a95fea4a"])
        let project = "claude/projects/-experiments-worktrees/"
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
        let sandbox = try SessionSandbox(place: place)
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
