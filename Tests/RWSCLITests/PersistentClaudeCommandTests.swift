import Foundation
import RWSTestSupport
import SSHClient
import Testing

@testable import rws

/// `rws claude --persist`: Claude Code's UI (the real CLI) in a tmux session on the box, which a
/// cut link does not end; rws comes back to the same screen, and another terminal can take it over.
@Suite(.serialized, .timeLimit(.minutes(3))) struct PersistentClaudeCommandTests {
    @Test(arguments: ServerKind.allCases)
    func aTurnGoesOnThroughACutLinkAndRwsComesBackToTheSameClaudeCode(kind: ServerKind) async throws {
        try await Self.expectATurnToGoOnThroughACutLink(kind)
    }

    /// Claude Code's UI in a persistent tmux session; the link is cut while the model works:
    /// rws comes back to the same Claude Code, the answer shows once, and `--kill-persistent` ends it.
    static func expectATurnToGoOnThroughACutLink(_ kind: ServerKind) async throws {
        // The answer comes 6 s after the question: the link is cut while the model is at work.
        let box = try TestBox(
            kind,
            claude: [
                ["blocks": [["type": "text", "text": "First answer: 41."]], "delay": 6],
                ["blocks": [["type": "text", "text": "Second answer: 42."]]],
            ])
        defer { box.remove() }
        try box.finishClaudeOnboarding(trusting: box.project)
        let proxy = try FaultProxy(targetPort: box.server.port)
        defer { proxy.stop() }
        let name = "claude-t\(UUID().uuidString.prefix(6).lowercased())"
        defer { _ = try? RWSBinary.runToEnd(["claude"] + box.server.rwsFlags + ["--kill-persistent", name], home: box.localHome) }
        let tmux = try Tmux.start(home: box.localHome, columns: 150, rows: 45)
        defer { tmux.stop() }
        try await tmux.waitForLastLine(Tmux.localPrompt)
        let flags = try box.server.rwsFlags(through: proxy)
        try tmux.type(
            try ShellQuoting.commandLine(
                [RWSBinary.path, "claude"] + flags + ["--persist", "--name", name, "app", "--permission-mode", "default"]))
        try await tmux.wait(for: "? for shortcuts", within: .seconds(30))
        let claude = try #require(ClaudeCodeCLI.oldestProcess(in: box.project))

        try tmux.type("First question", enter: false)
        try tmux.press("Enter")
        try await tmux.wait(for: "First question", within: .seconds(10))
        proxy.cutAll()
        try await tmux.wait(for: "reattaching to \(name)", within: .seconds(15))
        // The box's tmux redraws its screen over rws's message; the answer arrives there once.
        let screen: String
        do {
            screen = try await tmux.wait(within: .seconds(30), for: "the answer on the same screen") {
                !$0.contains("reattaching") && $0.contains("First answer: 41.")
            }
        } catch {
            // Says whether the model, Claude Code or rws's screen stalled (once, under CI load).
            let boxPane =
                (try? Spawn.run("/usr/bin/tmux", ["capture-pane", "-p", "-t", "=\(name):"], environment: ["PATH": "/usr/bin:/bin"]))
                ?? "(no pane)"
            let requests = box.model.allRequests().map { request in
                let body = request["body"] as? [String: Any]
                return "\(request["path"] ?? "?") tools=\(body?["tools"] != nil)"
            }
            Issue.record("the box's own pane:\n\(boxPane)\nmodel requests: \(requests)")
            throw error
        }
        #expect(screen.components(separatedBy: "First answer: 41.").count == 2, "\(screen)")
        #expect(ClaudeCodeCLI.oldestProcess(in: box.project) == claude, "a new Claude Code was started")

        try tmux.type("Second question", enter: false)
        try tmux.press("Enter")
        try await tmux.wait(for: "Second answer: 42.", within: .seconds(30))
        try tmux.press("Enter")
        try tmux.type("~.", enter: false)
        try await tmux.wait(for: "Detached from \(name)", within: .seconds(10))
        // rws reads the keyboard until it exits: the next command waits for the local prompt.
        try await tmux.waitForLastLine(Tmux.localPrompt)
        #expect(ClaudeCodeCLI.oldestProcess(in: box.project) == claude, "detaching ended Claude Code")

        let listed = await box.rws(["claude", "--list-persistent"])
        #expect(listed.stdout.contains("\(name)\ttmux\tdetached"), "\(listed.stdout)")
        // Another terminal takes it over, with the conversation on its screen.
        try tmux.type("clear; " + (try ShellQuoting.commandLine([RWSBinary.path, "claude"] + box.server.rwsFlags + ["--attach", name])))
        try await tmux.wait(for: "Second answer: 42.", within: .seconds(15))
        try tmux.press("Enter")
        try tmux.type("~.", enter: false)
        try await tmux.wait(for: "Detached from \(name)", within: .seconds(10))

        let killed = await box.rws(["claude", "--kill-persistent", name])
        #expect(killed.status == 0, "\(killed.stderr)")
        let gone = try await Eventually.holds(every: .milliseconds(100)) { ClaudeCodeCLI.processes(in: box.project).isEmpty }
        #expect(gone, "Claude Code outlived --kill-persistent")
    }

    /// tmux ends with 0 whatever its command did: the box keeps Claude Code's status for rws.
    @Test func rwsExitsWithClaudeCodesOwnStatusThroughTmux() async throws {
        let box = try TestBox(claude: [])
        defer { box.remove() }
        let program = box.server.remoteHome + "/fake-claude"
        try "#!/bin/sh\necho fake Claude Code ran; sleep 1; exit 3\n".write(toFile: program, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program)
        let name = "claude-x\(UUID().uuidString.prefix(6).lowercased())"
        let tmux = try Tmux.start(home: box.localHome)
        defer { tmux.stop() }
        try await tmux.waitForLastLine(Tmux.localPrompt)
        try tmux.type(
            try ShellQuoting.commandLine(
                [RWSBinary.path, "claude"] + box.server.rwsFlags + ["--persist", "--name", name, "app", "--claude", program])
                + "; echo rws-exit=$?")
        let screen = try await tmux.wait(within: .seconds(30), for: "rws's exit status") { $0.contains(/rws-exit=[0-9]/) }
        #expect(screen.contains("rws-exit=3"), "\(screen)")
        // Kept once: the status file is gone after rws read it.
        #expect(!FileManager.default.fileExists(atPath: box.server.remoteHome + "/.cache/rws/persistent/\(name).status"))
    }

    @Test func attachingToASessionThatIsNotThereSaysSoAndStartsNothing() async throws {
        let box = try TestBox(claude: [])
        defer { box.remove() }
        let tmux = try Tmux.start(home: box.localHome)
        defer { tmux.stop() }
        try await tmux.waitForLastLine(Tmux.localPrompt)
        try tmux.type(
            try ShellQuoting.commandLine([RWSBinary.path, "claude"] + box.server.rwsFlags + ["--attach", "claude-none"])
                + "; echo rws-exit=$?")
        let screen = try await tmux.wait(for: "rws-exit=64")
        #expect(screen.contains("no persistent shell named claude-none"), "\(screen)")
        #expect(ClaudeCodeCLI.processes(in: box.project).isEmpty)
    }

    @Test(arguments: [
        (["--name", "x", "app"], "a session name goes with --persist"),
        (["--attach", "claude-app", "app"], "take no project"),
        (["--attach", "claude-app", "--model", "opus"], "take no project"),
        (["--persist", "--kill-persistent", "claude-app"], "give one of"),
    ])
    func optionsThatDoNotGoTogetherAreUsageErrors(arguments: [String], message: String) async throws {
        let outcome = try await RWSBinary.run(["claude", "--host", "127.0.0.1"] + arguments, home: NSTemporaryDirectory())
        #expect(outcome.status == 64 && outcome.stderr.contains(message), "\(outcome.stderr)")
    }

    @Test(
        arguments: [
            ("app", nil, "claude-app"), ("~/src/my.app", nil, "claude-my-app"), (nil, "0b1c", "claude-0b1c"), (nil, nil, "claude"),
            ("/", nil, "claude"), ("~", nil, "claude"),
        ] as [(String?, String?, String)])
    func theSessionIsNamedForTheProject(project: String?, resume: String?, name: String) {
        #expect(ClaudeCommand.sessionName(project: project, resume: resume) == name)
    }
}
