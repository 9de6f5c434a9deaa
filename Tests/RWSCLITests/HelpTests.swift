import Foundation
import RWSTestSupport
import Testing

@Suite struct HelpTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-help-home").path

    /// Every subcommand listed by `rws --help` (nested ones as "config show").
    private func subcommands(of prefix: [String] = []) throws -> [[String]] {
        let help = try RWSBinary.run(prefix + ["--help"], home: home).stdout
        var inSubcommands = false
        let names = help.split(separator: "\n").compactMap { line -> String? in
            if !line.hasPrefix(" ") {
                inSubcommands = line.hasSuffix("SUBCOMMANDS:")  // "SUBCOMMANDS:" or a group's "FILES SUBCOMMANDS:"
                return nil
            }
            guard inSubcommands, line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }.filter { $0 != "See" && $0 != "help" }
        return try names.flatMap { name -> [[String]] in
            let path = prefix + [name]
            let nested = try subcommands(of: path)
            return nested.isEmpty ? [path] : nested
        }
    }

    @Test func askHelpSaysItRunsClaudeCodeHeadlessAndPointsAtTheTerms() throws {
        let help = try RWSBinary.run(["ask", "--help"], home: home).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("rws ask runs Claude Code in its headless stream-json mode (the mode of the Claude Agent SDK)"))
        #expect(help.contains("rws claude runs its interactive UI"))
        #expect(help.contains("check their current terms"))
    }

    @Test func theRootHelpShowsAnExample() throws {
        let outcome = try RWSBinary.run(["--help"], home: home)
        #expect(outcome.stdout.contains("Examples:"))
        #expect(outcome.stdout.contains("rws exec --host"))
    }

    @Test func everySubcommandsHelpShowsAnExample() throws {
        let commands = try subcommands()
        #expect(commands.count >= 4)
        for command in commands {
            let outcome = try RWSBinary.run(command + ["--help"], home: home)
            #expect(outcome.status == 0)
            #expect(outcome.stdout.contains("Examples:"), "rws \(command.joined(separator: " ")) --help has no example")
        }
    }

    @Test func aWrongFlagPrintsTheFixNotAStackTrace() throws {
        let outcome = try RWSBinary.run(["exec", "--hots", "box", "--", "true"], home: home)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("--hots"))
        #expect(outcome.stderr.contains("Usage:") || outcome.stderr.contains("--help"))
        #expect(!outcome.stderr.contains("Fatal error"))
    }
}

@Suite struct ConfigShowTests {
    @Test func showResolvesAHostFromTheSSHConfigWithFlagsWinning() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-config-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true)
        try "Host box\n  HostName 10.1.2.3\n  User alice\n  Port 2222\n".write(
            toFile: home + "/.ssh/config", atomically: true, encoding: .utf8)
        let plain = try RWSBinary.run(["config", "show", "--host", "box"], home: home)
        #expect(plain.stdout.contains("hostname 10.1.2.3\n"))
        #expect(plain.stdout.contains("user alice\n"))
        #expect(plain.stdout.contains("port 2222\n"))
        let overridden = try RWSBinary.run(
            ["config", "show", "--host", "box", "--port", "2200"], home: home,
            environment: ["RWS_USER": "bob"])
        #expect(overridden.stdout.contains("port 2200\n"))
        #expect(overridden.stdout.contains("user bob\n"))
    }

    @Test func jsonErrorsAreJSON() throws {
        let outcome = try RWSBinary.run(["config", "show", "--json"], home: "/nonexistent-home")
        #expect(outcome.status == 64)
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect((object?["error"] as? String)?.contains("--host") == true)
    }
}
