import Foundation
import RWSTestSupport
import Testing

/// Help and usage errors, in-process (`InProcessRWS`): they need no box and no environment.
@Suite struct HelpTests {
    /// Every subcommand listed by `rws --help` (nested ones as "config show").
    private func subcommands(of prefix: [String] = []) async throws -> [[String]] {
        let help = await InProcessRWS.run(prefix + ["--help"]).stdout
        var inSubcommands = false
        let names = help.split(separator: "\n").compactMap { line -> String? in
            if !line.hasPrefix(" ") {
                inSubcommands = line.hasSuffix("SUBCOMMANDS:")  // "SUBCOMMANDS:" or a group's "FILES SUBCOMMANDS:"
                return nil
            }
            guard inSubcommands, line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }.filter { $0 != "See" && $0 != "help" }
        var commands: [[String]] = []
        for name in names {
            let path = prefix + [name]
            let nested = try await subcommands(of: path)
            commands += nested.isEmpty ? [path] : nested
        }
        return commands
    }

    @Test func askHelpSaysItRunsClaudeCodeHeadlessAndPointsAtTheTerms() async throws {
        let help = await InProcessRWS.run(["ask", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("rws ask runs Claude Code in its headless stream-json mode (the mode of the Claude Agent SDK)"))
        #expect(help.contains("rws claude runs its interactive UI"))
        #expect(help.contains("check their current terms"))
    }

    @Test func theRootHelpShowsAnExample() async throws {
        let outcome = await InProcessRWS.run(["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("Examples:"))
        #expect(outcome.stdout.contains("rws exec --host"))
    }

    @Test func everySubcommandsHelpShowsAnExample() async throws {
        let commands = try await subcommands()
        #expect(commands.count >= 30)
        for command in commands {
            let outcome = await InProcessRWS.run(command + ["--help"])
            #expect(outcome.status == 0)
            #expect(outcome.stdout.contains("Examples:"), "rws \(command.joined(separator: " ")) --help has no example")
        }
    }

    @Test func aWrongFlagPrintsTheFixNotAStackTrace() async throws {
        let outcome = await InProcessRWS.run(["exec", "--hots", "box", "--", "true"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("--hots"))
        #expect(outcome.stderr.contains("Usage:") || outcome.stderr.contains("--help"))
        #expect(!outcome.stderr.contains("Fatal error"))
        #expect(outcome.stdout.isEmpty)
    }

    /// The binary itself still says the same: what the in-process tests run is what users run.
    @Test func theBuiltBinaryPrintsTheSameHelpAndUsageError() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-help-home").path
        for arguments in [["--help"], ["exec", "--hots", "box", "--", "true"]] {
            let inProcess = await InProcessRWS.run(arguments)
            let spawned = try await RWSBinary.run(arguments, home: home)
            #expect(spawned.status == inProcess.status, "\(arguments)")
            #expect(spawned.stdout == inProcess.stdout, "\(arguments)")
            #expect(spawned.stderr == inProcess.stderr, "\(arguments)")
        }
    }
}

@Suite struct ConfigShowTests {
    @Test func showResolvesAHostFromTheSSHConfigWithFlagsWinning() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-config-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true)
        try "Host box\n  HostName 10.1.2.3\n  User alice\n  Port 2222\n".write(
            toFile: home + "/.ssh/config", atomically: true, encoding: .utf8)
        let plain = await InProcessRWS.run(["config", "show", "--host", "box"], home: home)
        #expect(plain.stdout.contains("hostname 10.1.2.3\n"))
        #expect(plain.stdout.contains("user alice\n"))
        #expect(plain.stdout.contains("port 2222\n"))
        let overridden = await InProcessRWS.run(
            ["config", "show", "--host", "box", "--port", "2200"], home: home,
            environment: ["RWS_USER": "bob"])
        #expect(overridden.stdout.contains("port 2200\n"))
        #expect(overridden.stdout.contains("user bob\n"))
    }

    @Test func jsonErrorsAreJSON() async throws {
        let outcome = await InProcessRWS.run(["config", "show", "--json"], home: "/nonexistent-home")
        #expect(outcome.status == 64)
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect((object?["error"] as? String)?.contains("--host") == true)
    }
}
