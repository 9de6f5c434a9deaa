import Foundation
import RWSTestSupport
import Testing

/// How tests tell Claude Code from the helpers it starts in its project: by start time.
@Suite(.timeLimit(.minutes(1))) struct OldestProcessTests {
    @Test func theOldestProcessInAFolderIsTheOneStartedFirstWhateverItsPID() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rws-oldest-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var started: [pid_t] = []
        defer {
            for pid in started {
                kill(-pid, SIGKILL)
                _ = Spawn.wait(for: pid)
            }
        }
        for _ in 0..<2 {
            started.append(
                try Spawn.start("/bin/sleep", ["30"], environment: [], directory: folder, stdoutPath: "/dev/null", stderrPath: nil))
            // Start times count in ticks of 10 ms.
            #expect(try await Eventually.holds(within: .seconds(5)) { ClaudeCodeCLI.processes(in: folder).count == started.count })
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(ClaudeCodeCLI.oldestProcess(in: folder) == started[0])
        #expect(ClaudeCodeCLI.oldestProcess(in: folder + "/none") == nil)
    }
}
