import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import SessionHistory
import Testing

/// Standing permissions granted through rws are listed by `rws hooks status`: the grant, who gave
/// it, the settings file Claude Code keeps it in (checked against the file itself) and how to
/// revoke it. The real Claude Code CLI writes the files; `rws ask` and `rws watch` answer.
@Suite(.serialized, .timeLimit(.minutes(2))) struct StandingGrantsCommandTests {
    static var turns: [[String: Any]] {
        [
            ["blocks": [["type": "tool_use", "name": "Bash", "input": ["command": "echo one > one.txt", "description": "one"]]]],
            ["blocks": [["type": "tool_use", "name": "Bash", "input": ["command": "echo two > two.txt", "description": "two"]]]],
            ["blocks": [["type": "text", "text": "All done."]]],
        ]
    }

    @Test(arguments: ServerKind.allCases)
    func grantsGivenInAskAndWatchAreListedWithTheirFileAndHowToRevokeThem(kind: ServerKind) async throws {
        let box = try TestBox(kind, claude: Self.turns)
        defer { box.remove() }
        let (ask, watch) = try await QuestionWithdrawalTests.askAndWatch(box)
        defer { [ask, watch].forEach { $0.stop() } }
        try await QuestionWithdrawalTests.bothAsk("Allow Bash: echo one > one.txt?", ask, watch)
        try ask.type("1")
        try await ask.wait(for: "rws: granted: allow Bash(echo one *)", within: .seconds(10))
        try await QuestionWithdrawalTests.bothAsk("Allow Bash: echo two > two.txt?", ask, watch)
        try watch.type("1")
        try await watch.wait(for: "rws: granted: allow Bash(echo two *)", within: .seconds(10))
        try await ask.wait(for: "rws-exit=0", within: .seconds(30))

        let file = box.project + "/.claude/settings.local.json"
        let written = try JSONValue(parsing: try Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(written["permissions"]?["allow"]?.arrayValue?.compactMap(\.stringValue) == ["Bash(echo one *)", "Bash(echo two *)"])
        let status = await InProcessRWS.run(["hooks", "status"] + box.server.rwsFlags, home: box.localHome)
        let lines = status.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("standing permissions granted through rws (2):"), "\(status.stdout)")
        #expect(lines.contains { $0.hasPrefix("  1. allow Bash(echo one *) (rws ask, ") && $0.hasSuffix(", \(box.project)): in force") })
        #expect(lines.contains { $0.hasPrefix("  2. allow Bash(echo two *) (rws watch, ") && $0.hasSuffix(": in force") })
        #expect(
            lines.contains(
                "     kept in \(file); to revoke, take \"Bash(echo one *)\" out of permissions.allow in \(file) "
                    + "(or use /permissions in Claude Code)"), "\(status.stdout)")

        // Revoked by hand, as the line says: the listing reads the file again.
        let kept = #"{"permissions":{"allow":["Bash(echo two *)"]}}"#
        try Data(kept.utf8).write(to: URL(fileURLWithPath: file))
        let after = await InProcessRWS.run(["hooks", "status", "--json"] + box.server.rwsFlags, home: box.localHome)
        let grants = try JSONValue(parsing: after.stdout)["standingGrants"]?.arrayValue ?? []
        #expect(grants.map { $0["inForce"]?.boolValue } == [false, true], "\(after.stdout)")
        #expect(grants.map { $0["client"]?.stringValue } == ["rws ask", "rws watch"])
        #expect(grants.first?["settings"]?.stringValue == file)
    }
}
