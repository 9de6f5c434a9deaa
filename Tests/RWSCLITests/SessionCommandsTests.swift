import Foundation
import RWSTestSupport
import Testing

/// The session commands, run as a person runs them, against a history laid out on the test box.
@Suite struct SessionCommandsTests {
    static let id = "77777777-0000-0000-0000-000000000007"

    /// A box on the shared server of `kind` holding one session (and a subagent file of it).
    static func sessionBox(_ kind: ServerKind = .default) throws -> TestBox {
        let box = try TestBox(kind)
        let project = box.claudeProjects + "/-home-dev-proj"
        try FileManager.default.createDirectory(atPath: project + "/\(Self.id)/subagents", withIntermediateDirectories: true)
        let lines = [
            #"{"parentUuid":null,"isSidechain":false,"type":"user","uuid":"u1","sessionId":"\#(Self.id)","cwd":"/home/dev/proj","#
                + #""timestamp":"2026-01-02T10:00:00.000Z","message":{"role":"user","content":"List the files"}}"#,
            #"{"parentUuid":"u1","isSidechain":false,"type":"assistant","uuid":"a1","sessionId":"\#(Self.id)","#
                + #""cwd":"/home/dev/proj","timestamp":"2026-01-02T10:00:05.000Z","message":{"id":"m1","role":"assistant","#
                + #""model":"claude-test","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}"#,
            #"{"parentUuid":"a1","isSidechain":false,"type":"user","uuid":"u2","sessionId":"\#(Self.id)","cwd":"/home/dev/proj","#
                + #""timestamp":"2026-01-02T10:00:06.000Z","message":{"role":"user","content":[{"type":"tool_result","#
                + #""tool_use_id":"t1","content":"a.txt\nb.txt"}]}}"#,
        ]
        try box.writeSession(Self.id, lines: lines)
        try Data("{}\n".utf8).write(to: URL(fileURLWithPath: project + "/\(Self.id)/subagents/agent-x.jsonl"))
        return box
    }

    /// The session's file in `box`.
    static func file(in box: TestBox) -> String { box.claudeProjects + "/-home-dev-proj/\(id).jsonl" }

    @Test(arguments: ServerKind.allCases)
    func sessionsListsTheBoxAtAGlanceAndAsJSON(kind: ServerKind) async throws {
        let box = try Self.sessionBox(kind)
        defer { box.remove() }
        let table = await box.rws(["sessions"])
        #expect(table.status == 0)
        // Written a moment ago, last record a tool result: Claude is working; one subagent file.
        #expect(
            table.stdout == "ID        LAST              MSGS   STATE       CONTEXT      AGENTS  " + "TITLE\n"
                + "77777777  2026-01-02 10:00  3      running     -            1       List the files\n")
        let json = await box.rws(["sessions", "/home/dev/proj", "--json", "--limit", "5"])
        #expect(json.status == 0)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect((decoded?.first?["summary"] as? [String: Any])?["cwd"] as? String == "/home/dev/proj", "\(json.stdout)")
        #expect((decoded?.first?["subagentFiles"] as? [Any])?.count == 1)
        #expect(decoded?.first?["state"] as? String == "running", "\(json.stdout)")
        #expect((decoded?.first?["summary"] as? [String: Any])?["activity"] as? String == "working")
        #expect((decoded?.first?["summary"] as? [String: Any])?["subagentCount"] as? Int == 1)
    }

    @Test(arguments: ServerKind.allCases)
    func historyShowsRolesTimesAndOneLinePerToolCall(kind: ServerKind) async throws {
        let box = try Self.sessionBox(kind)
        defer { box.remove() }
        let outcome = await box.rws(["history", "7777"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("[2026-01-02 10:00:00] You\n  List the files"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("Claude (claude-test)"))
        #expect(outcome.stdout.contains("▸ Bash(ls) → 2 lines"))
    }

    @Test(arguments: ServerKind.allCases)
    func historyLastShowsOnlyTheLastMessages(kind: ServerKind) async throws {
        let box = try Self.sessionBox(kind)
        defer { box.remove() }
        let outcome = await box.rws(["history", "7777", "--last", "1"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("▸ Bash(ls) → 2 lines"), "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("You\n  List the files"), "\(outcome.stdout)")
        #expect(await box.rws(["history", "7777", "--last", "0"]).status != 0)
    }

    @Test(arguments: ServerKind.allCases)
    func exportWritesMarkdownToAFile(kind: ServerKind) async throws {
        let box = try Self.sessionBox(kind)
        defer { box.remove() }
        let output = box.localHome + "-export.md"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let outcome = await box.rws(["export", Self.id, "-o", output])
        #expect(outcome.status == 0)
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(written.hasPrefix("# List the files"))
        #expect(written.contains("Bash"))
    }

    @Test(arguments: ServerKind.allCases)
    func aFileFromAnotherWriterIsListedAndShownAsItsRecordsSay(kind: ServerKind) async throws {
        let box = try Self.sessionBox(kind)
        defer { box.remove() }
        // Same first 8 characters as the other session; spaced JSON, no timestamps, bare-string content.
        let other = "77777777-1111-0000-0000-000000000008"
        let lines = [
            #"{ "type": "user", "uuid": "u1", "parentUuid": null, "sessionId": "\#(other)", "cwd": "/home/dev/proj","#
                + #" "message": { "role": "user", "content": [ "Part one", "part two" ] } }"#,
            #"{ "type" : "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": "\#(other)", "cwd": "/home/dev/proj","#
                + #" "message": { "id": "m1", "role": "assistant", "content": [ "Plain answer" ] } }"#,
        ]
        let path = String(Self.file(in: box).dropLast(Self.id.count + 6)) + other + ".jsonl"
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))

        let table = await box.rws(["sessions"])
        #expect(table.status == 0)
        #expect(table.stdout.hasPrefix("ID          LAST"), "\(table.stdout)")
        // No timestamps: the file's time stands in; spaced JSON still counts both messages.
        let row = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("77777777-1  ") }, "\(table.stdout)")
        #expect(row.dropFirst(30).hasPrefix("2      input") && row.hasSuffix("  Part one"), "\(table.stdout)")
        #expect(table.stdout.contains("\n77777777-0  2026-01-02 10:00  3 "), "\(table.stdout)")
        let history = await box.rws(["history", "77777777-1"])
        #expect(history.status == 0)
        #expect(history.stdout.contains("Part one\n") && history.stdout.contains("part two") && history.stdout.contains("Plain answer"))
        #expect(!history.stdout.contains("[]"), "\(history.stdout)")
    }

    @Test(arguments: ServerKind.allCases)
    func aTornLastLineIsReportedAtVerboseAndInJSONOnTheBoxAndLocally(kind: ServerKind) async throws {
        let box = try Self.sessionBox(kind)
        defer { box.remove() }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: Self.file(in: box)))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"type":"assistant","uuid":"a2","message":{"content":[{"type":"te"#.utf8))
        try handle.close()

        let verbose = await box.rws(["history", "7777", "-v"])
        #expect(verbose.status == 0)
        #expect(verbose.stderr.contains("line 4 (torn last line)"), "\(verbose.stderr)")
        #expect(verbose.stdout.contains("List the files"))
        let json = await box.rws(["history", "7777", "--format", "json"])
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let issues = try #require(decoded?["lineIssues"] as? [[String: Any]], "\(json.stdout)")
        #expect(issues.count == 1 && issues.first?["tornLastLine"] as? Bool == true && issues.first?["line"] as? Int == 4)

        let local = await InProcessRWS.run(["history", Self.file(in: box), "-v"], home: box.localHome)
        #expect(local.status == 0 && local.stderr.contains("line 4 (torn last line)"), "\(local.stderr)")
        let plain = await box.rws(["history", "7777"])
        #expect(!plain.stderr.contains("torn"), "\(plain.stderr)")
    }

    @Test(arguments: ServerKind.allCases)
    func renameThenListShowsTheNewTitle(kind: ServerKind) async throws {
        let box = try Self.sessionBox(kind)
        defer { box.remove() }
        #expect(await box.rws(["rename", "77", "Files of proj"]).status == 0)
        #expect(await box.rws(["sessions"]).stdout.contains("Files of proj"))
    }

    @Test(arguments: ServerKind.allCases)
    func rmSessionNeedsYesOffATerminalAndThenDeletes(kind: ServerKind) async throws {
        let box = try Self.sessionBox(kind)
        defer { box.remove() }
        let refused = await box.rws(["rm-session", "7777"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--yes"))
        #expect(FileManager.default.fileExists(atPath: Self.file(in: box)))
        let deleted = await box.rws(["rm-session", "7777", "--yes"])
        #expect(deleted.status == 0)
        #expect(!FileManager.default.fileExists(atPath: Self.file(in: box)))
        #expect(!FileManager.default.fileExists(atPath: String(Self.file(in: box).dropLast(6))))
    }

    @Test(arguments: ServerKind.allCases)
    func anUnknownSessionFailsWithOneLineAndJSONWhenAsked(kind: ServerKind) async throws {
        let box = try Self.sessionBox(kind)
        defer { box.remove() }
        let text = await box.rws(["history", "0000dead"])
        #expect(text.status == 1)
        #expect(text.stderr == "rws: no session 0000dead on the box (see `rws sessions` for the ids)\n")
        let json = await box.rws(["history", "0000dead", "--format", "json"])
        #expect(json.stdout.contains(#""error":"no session 0000dead"#))
    }
}

@Suite struct HistoryFollowCommandTests {
    @Test(arguments: ServerKind.allCases)
    func historyFollowPrintsNewMessagesUntilCtrlCThenStopsTheRemoteLoopAndExits130(kind: ServerKind) async throws {
        let box = try SessionCommandsTests.sessionBox(kind)
        defer { box.remove() }
        let run = try RunningRws(box)
        let watch = RunningRws.loopWatch(box)
        #expect(await run.output.waitFor("▸ Bash(ls) → 2 lines", seconds: 30))
        #expect(try await watch.waitUntilRunning(within: 30))
        let line =
            #"{"parentUuid":"u2","isSidechain":false,"type":"assistant","uuid":"a2","#
            + #""sessionId":"\#(SessionCommandsTests.id)","timestamp":"2026-01-02T10:00:09.000Z","message":{"id":"m2","#
            + #""role":"assistant","model":"claude-test","content":[{"type":"text","text":"Two files."}]}}"#
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: SessionCommandsTests.file(in: box)))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((line + "\n").utf8))
        try handle.close()
        #expect(await run.output.waitFor("  Two files.", seconds: 10))
        run.process.interrupt()
        #expect(await run.waitForExit(within: 10), "Ctrl+C ends rws history --follow")
        let left = watch.running()
        #expect(left.isEmpty, "the remote loop is gone when rws exits: \(left)")
        if !left.isEmpty { try watch.signal(SIGKILL) }
        if run.process.isRunning { run.kill() }
        #expect(run.process.terminationReason == .exit)
        #expect(run.process.terminationStatus == 130)
        #expect(run.errors.collected == "")
    }
}

/// Gathers a child's output in the background so a test can wait for a line.
///
/// A thread of its own reads until the end, not `FileHandle.readabilityHandler`: on Linux that
/// sometimes misses the end of a pipe (swift-corelibs-foundation issue 3275), and race finder
/// run 41 saw a follow's output not end in 60 s after rws had exited.
final class OutputCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var atEnd = false

    /// Everything gathered so far (decoded whole: a read may end inside a character).
    var collected: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }

    /// Whether the output reached its end: once the child has exited, nothing more comes.
    var ended: Bool { lock.withLock { atEnd } }

    /// Reads `handle` to its end; the reading thread holds it (a closed read end would end the
    /// child with SIGPIPE).
    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                lock.withLock { bytes += buffer[..<count] }
            }
            lock.withLock { atEnd = true }
            withExtendedLifetime(handle) {}
        }
    }

    func waitFor(_ needle: String, seconds: Double) async -> Bool {
        (try? await Eventually.holds(within: .seconds(seconds), every: .milliseconds(20)) { collected.contains(needle) })
            ?? false
    }
}
