import Foundation
import RWSTestSupport
import SSHClient
import Testing

@testable import RemoteWorkspace

/// A follow loop over a file that is rotated (moved to its previous generation, a new one started)
/// at the worst moment: between the loop's look at the file and its read. On a busy box that
/// moment is wide enough for the hooks of a whole prompt (the side-by-side run of 2026-11-28 lost
/// two events of a rotated spool that way). The loop is `rws watch`'s, over this machine's `/bin/sh`.
@Suite struct FollowRotationTests {
    /// A spool line of the prompt `prompt`, as rws's hook writes it.
    static func line(_ prompt: String) -> String {
        #"{"at":1,"pid":1,"event":{"hook_event_name":"UserPromptSubmit","prompt":"\#(prompt)"}}"# + "\n"
    }

    @Test(arguments: ["head", "tail"])
    func aRotationBetweenTheLookAndTheReadLosesNoLineAndRepeatsNone(reader: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rws-rotation-\(UUID().uuidString.prefix(8))").path
        let wrappers = folder + "/bin"
        try FileManager.default.createDirectory(atPath: wrappers, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/events.jsonl"
        try Data((Self.line("one") + Self.line("two") + Self.line("three")).utf8).write(to: URL(fileURLWithPath: file))
        // The first `head` or `tail` the loop runs (the one that reads what its look saw) rotates
        // the file first, as a writer would at that moment: a line more, the move, a new file.
        let real = try Shell.sh("command -v \(reader)").trimmingCharacters(in: .whitespacesAndNewlines)
        try Shell.sh(
            """
            cd \(try ShellQuoting.quote(wrappers)) && : > trigger && cat > \(reader) <<'EOF' && chmod +x \(reader)
            #!/bin/sh
            if rm "$(dirname "$0")/trigger" 2>/dev/null; then
              f=\(try ShellQuoting.quote(file))
              printf '%s' \(try ShellQuoting.quote(Self.line("four"))) >> "$f" && mv -f "$f" "$f.1" &&
                printf '%s' \(try ShellQuoting.quote(Self.line("five"))) >> "$f"
            fi
            exec \(real) "$@"
            EOF
            """)
        // From the start the loop reads with `head`; from an offset, with `tail`.
        let offset = reader == "head" ? 0 : Self.line("one").utf8.count
        let expected = (reader == "head" ? ["one"] : []) + ["two", "three", "four", "five"]
        let host = LocalShell(environment: ["PATH": wrappers + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")])
        var loop = FollowScript.Loop(path: file, interval: .milliseconds(50), host: host, initialIdentity: "")
        loop.previousGeneration = file + ".1"
        let control = FollowControl(loop: loop, remote: try loop.start(at: loop.initialPosition(offset: offset)))
        var events = FollowIteration(lifetime: FollowLifetime(control), decoder: ClaudeAttentionWatch.Decoder(), offset: offset)
        let stopper = Task {
            try await Task.sleep(for: .seconds(10))
            control.stop()
        }
        var prompts: [String] = []
        while prompts.count < expected.count, let event = try await events.next() {
            if case .promptSubmitted(let prompt) = event.kind { prompts.append(prompt) }
        }
        stopper.cancel()
        try await control.stopAndWait()
        #expect(prompts == expected)
        #expect(!FileManager.default.fileExists(atPath: wrappers + "/trigger"), "the rotation never happened")
    }
}
