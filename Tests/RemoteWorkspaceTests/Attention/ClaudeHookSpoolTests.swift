import Foundation
import RWSTestSupport
import SSHClient
import SessionHistory
import Synchronization
import Testing

@testable import RemoteWorkspace

/// The hook's spool under sessions that report at once: every line whole, none lost, each at
/// most one write long; with the userland of a Debian box and with BusyBox's.
@Suite(.timeLimit(.minutes(2))) struct ClaudeHookSpoolTests {
    static let workers = 8
    static let eventsPerWorker = 25

    @Test(arguments: [false, true])
    func concurrentSessionsNeverTearOrInterleaveLines(busybox: Bool) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rws-spool-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(ClaudeHookScript.fileText.utf8).write(to: URL(fileURLWithPath: folder + "/hook.sh"))
        if busybox {
            try Prerequisites.require("/usr/bin/busybox", package: "busybox")
            for applet in ["sh", "awk", "cat", "date", "wc", "mkdir", "mv", "rmdir", "find", "rm", "tail", "grep", "sleep"] {
                try FileManager.default.createSymbolicLink(atPath: folder + "/bin/" + applet, withDestinationPath: "/usr/bin/busybox")
            }
        }
        let path = busybox ? folder + "/bin" : "/usr/bin:/bin"
        let shell = busybox ? folder + "/bin/sh" : "/usr/bin/dash"
        let tally = Tally()
        // Threads of their own: the sessions block on their hooks, the test's executor must not.
        for worker in 0..<Self.workers {
            Thread.detachNewThread {
                Self.report(worker: worker, shell: shell, folder: folder, path: path, tally: tally)
                tally.finished.withLock { $0 += 1 }
            }
        }
        while tally.finished.withLock({ $0 }) < Self.workers { try await Task.sleep(for: .milliseconds(50)) }
        #expect(tally.failures.withLock { $0 }.isEmpty)
        let spool = try Data(contentsOf: URL(fileURLWithPath: folder + "/events.jsonl"))
        let lines = spool.split(separator: UInt8(ascii: "\n"))
        var sessions: Set<String> = []
        for line in lines {
            #expect(line.count + 1 <= ClaudeHookScript.lineLimit)
            let value = try JSONValue(parsing: line)
            sessions.insert(value["event"]?["session_id"]?.stringValue ?? "?")
        }
        #expect(lines.count == Self.workers * Self.eventsPerWorker)
        #expect(sessions.count == Self.workers * Self.eventsPerWorker)
        #expect(lines.allSatisfy { $0.count > 3000 }, "the events were meant to be cut to near the limit")
    }

    /// A watcher may answer a request as soon as it reads the request's line: the request must
    /// be waiting by then. The spool is a FIFO here, so the hook stops at its next look at the
    /// spool and the test sees what a watcher reading the line at that moment would.
    @Test func aRequestIsWaitingBeforeItsLineIsWritten() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rws-request-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(ClaudeHookScript.fileText.utf8).write(to: URL(fileURLWithPath: folder + "/hook.sh"))
        try Data().write(to: URL(fileURLWithPath: folder + "/lease"))
        try Shell.run("/usr/bin/mkfifo", [folder + "/events.jsonl"])
        let event = #"{"session_id":"s","hook_event_name":"PermissionRequest","transcript_path":"\#(folder)/t.jsonl","tool_use_id":"x"}"#
        let words = try ["/usr/bin/dash", folder + "/hook.sh", folder].map(ShellQuoting.quote).joined(separator: " ")
        let hook = try LocalShell().startCommand("printf '%s' \(ShellQuoting.quote(event)) | \(words)", timeout: .seconds(30))
        defer { hook.cancel() }
        let line = try await Blocking.onThread { () throws -> String in
            let spool = try FileHandle(forReadingFrom: URL(fileURLWithPath: folder + "/events.jsonl"))
            defer { try? spool.close() }
            var bytes = Data()
            while !bytes.contains(UInt8(ascii: "\n")), let chunk = try spool.read(upToCount: 4096), !chunk.isEmpty { bytes += chunk }
            return String(decoding: bytes, as: UTF8.self)
        }
        let id = try #require(try JSONValue(parsing: Data(line.utf8))["request"]?.stringValue, "\(line)")
        #expect(FileManager.default.fileExists(atPath: folder + "/requests/\(id).json"), "announced before it waited: \(line)")
    }

    /// What the sessions' threads report.
    final class Tally: Sendable {
        let failures = Mutex<[String]>([])
        let finished = Mutex(0)
    }

    /// One session reporting its events one after another.
    static func report(worker: Int, shell: String, folder: String, path: String, tally: Tally) {
        for number in 0..<eventsPerWorker {
            // Long enough to be cut to near the line limit: ten strings of 2,000 bytes.
            let fields = (0..<10).map { #","f\#($0)":""# + String(repeating: "é\(worker)", count: 700) + #"""# }.joined()
            let payload = #"{"session_id":"w\#(worker)-\#(number)","hook_event_name":"Stop""# + fields + "}"
            do {
                let run = try ScriptShells.execute(
                    shell, [folder + "/hook.sh", folder], input: Array(payload.utf8), directory: folder, environment: ["PATH": path])
                if run.status != 0 { tally.failures.withLock { $0.append("\(run)") } }
            } catch {
                tally.failures.withLock { $0.append("\(error)") }
            }
        }
    }
}
