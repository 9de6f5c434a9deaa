import Foundation
import RWSTestSupport
import SSHClient
import Testing

@testable import RemoteWorkspace

/// A follow loop over a file that is rotated (moved to its previous generation, a new one started)
/// at the worst moments: right after one of the loop's `stat` runs, or between its look at the
/// file and its read. On a busy box such a moment is wide enough for the hooks of a whole prompt
/// (the side-by-side run of 2026-11-28 lost two events of a rotated spool that way). The loop is
/// `rws watch`'s, over this machine's `/bin/sh`.
@Suite struct FollowRotationTests {
    /// A spool line of the prompt `prompt`, as rws's hook writes it.
    static func line(_ prompt: String) -> String {
        #"{"at":1,"pid":1,"event":{"hook_event_name":"UserPromptSubmit","prompt":"\#(prompt)"}}"# + "\n"
    }

    /// `command`'s run number `run` rotates the file: `head` and `tail` (which read what the look
    /// saw) before they start, `stat` (the look, then the checks of the descriptor) after it answered.
    @Test(arguments: [("head", 1), ("tail", 1), ("stat", 1), ("stat", 2), ("stat", 3)])
    func aRotationAtAnyStepOfALookLosesNoLineAndRepeatsNone(command: String, run: Int) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rws-rotation-\(UUID().uuidString.prefix(8))").path
        let wrappers = folder + "/bin"
        try FileManager.default.createDirectory(atPath: wrappers, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/events.jsonl"
        try Data((Self.line("one") + Self.line("two") + Self.line("three")).utf8).write(to: URL(fileURLWithPath: file))
        // As a writer would rotate: a line more, the move, a new file.
        let real = try Shell.sh("command -v \(command)").trimmingCharacters(in: .whitespacesAndNewlines)
        let rotation = [
            "printf '%s' \(try ShellQuoting.quote(Self.line("four"))) >> \"$f\" && mv -f \"$f\" \"$f.1\" &&",
            "  printf '%s' \(try ShellQuoting.quote(Self.line("five"))) >> \"$f\" && : > \"$d/rotated\"",
        ].joined(separator: "\n")
        let wrapper =
            command == "stat"
            ? "\(real) \"$@\"; s=$?\n[ \"$n\" -ne \(run) ] || { \(rotation); }\nexit $s"
            : "[ \"$n\" -ne \(run) ] || { \(rotation); }\nexec \(real) \"$@\""
        try Shell.sh(
            """
            cd \(try ShellQuoting.quote(wrappers)) && echo 0 > calls && cat > \(command) <<'EOF' && chmod +x \(command)
            #!/bin/sh
            d=$(dirname "$0") f=\(try ShellQuoting.quote(file))
            n=$(($(cat "$d/calls") + 1)) && echo "$n" > "$d/calls"
            \(wrapper)
            EOF
            """)
        // From the start the loop reads with `head`; from an offset, with `tail`.
        let offset = command == "tail" ? Self.line("one").utf8.count : 0
        let expected = (command == "tail" ? [] : ["one"]) + ["two", "three", "four", "five"]
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
        #expect(FileManager.default.fileExists(atPath: wrappers + "/rotated"), "the rotation never happened")
    }
}
