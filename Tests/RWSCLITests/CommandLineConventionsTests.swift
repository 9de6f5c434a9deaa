import Foundation
import RWSTestSupport
import Testing

/// What holds for every command: help grouped by area, completion hints only for local files,
/// one JSON object for one result, and exit 64 for every usage error.
@Suite(.timeLimit(.minutes(5))) struct CommandLineConventionsTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-cli-conventions-\(UUID().uuidString.prefix(8))").path

    @Test func theRootHelpGroupsTheSubcommandsByWhatTheyWorkOn() async throws {
        let help = await InProcessRWS.run(["--help"]).stdout
        let groups = [
            "CONNECTION": ["exec", "shell", "forward", "ports", "config"],
            "PROJECTS": ["projects", "create", "clone", "delete"],
            "SESSIONS": [
                "sessions", "history", "export", "rename", "rm-session", "search", "ask", "claude", "watch", "hooks", "record-types",
            ],
            "FILES": ["ls", "cat", "get", "put", "files"],
        ]
        for (group, commands) in groups {
            let section =
                help.components(separatedBy: "\(group) SUBCOMMANDS:\n").dropFirst().first?
                .components(separatedBy: "\n\n").first ?? ""
            let listed = section.split(separator: "\n").filter { !$0.hasPrefix("   ") }.compactMap { $0.split(separator: " ").first }
            #expect(listed.map(String.init) == commands, "\(group): \(help)")
        }
        #expect(!help.contains("\nSUBCOMMANDS:"), "no subcommand is left out of a group")
    }

    @Test func localFileArgumentsCompleteFilesAndPathsOnTheBoxDoNot() async throws {
        let dump = await InProcessRWS.run(["--experimental-dump-help"])
        let root = try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any]
        let commands = (root?["command"] as? [String: Any])?["subcommands"] as? [[String: Any]] ?? []
        func completion(_ command: String, _ argument: String) -> String {
            let arguments = commands.first { $0["commandName"] as? String == command }?["arguments"] as? [[String: Any]] ?? []
            let match = arguments.first { candidate in
                let names = (candidate["names"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                return names.contains(argument) || (names.isEmpty && candidate["valueName"] as? String == argument)
            }
            guard let kind = match?["completionKind"] as? [String: Any] else { return "none" }
            if let file = kind["file"] as? [String: Any] {
                return "file" + ((file["extensions"] as? [String]).map { $0.isEmpty ? "" : " " + $0.joined(separator: ",") } ?? "")
            }
            return kind.keys.sorted().joined()
        }
        for command in ["exec", "cat", "sessions"] {
            #expect(completion(command, "identity") == "file")
            #expect(completion(command, "known-hosts") == "file")
            #expect(completion(command, "ssh-config") == "file")
        }
        #expect(completion("export", "output") == "file")
        #expect(completion("export", "session") == "file jsonl")
        #expect(completion("history", "session") == "file jsonl")
        #expect(completion("sessions", "local") == "directory")
        #expect(completion("ask", "image") == "file png,jpg,jpeg,gif,webp")
        for (command, remote) in [("cat", "path"), ("ls", "path"), ("ask", "file"), ("projects", "workspace-root")] {
            #expect(completion(command, remote) == "none", "\(command) \(remote) is a path on the box")
        }
    }

    @Test func aCommandReportingOneThingPrintsOneJSONObject() async throws {
        let box = try TestBox()
        defer { box.remove() }
        let (server, flags) = (box.server, box.rwsFlags)
        let bare = box.root + "/source.git"
        try Shell.sh("git init -q --bare '\(bare)'")

        let outcomes = [
            ("create", await InProcessRWS.run(["create", "notes", "--json"] + flags, home: home)),
            ("clone", await InProcessRWS.run(["clone", "file://" + bare, "--allow-local", "--name", "app", "--json"] + flags, home: home)),
            ("delete", await InProcessRWS.run(["delete", "app", "--yes", "--json"] + flags, home: home)),
            ("config show", await InProcessRWS.run(["config", "show", "--json"] + server.rwsFlags, home: home)),
        ]
        for (command, outcome) in outcomes {
            #expect(outcome.status == 0, "\(command): \(outcome.stderr)")
            let value = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))
            #expect(value is [String: Any], "rws \(command) --json printed \(outcome.stdout)")
        }
        let created = try JSONSerialization.jsonObject(with: Data(outcomes[0].1.stdout.utf8)) as? [String: Any]
        #expect(created?["name"] as? String == "notes")
        #expect(created?["path"] as? String == box.workspaceRoot + "/notes")
    }

    @Test func everyUsageErrorExitsWith64AndSaysWhatIsWrong() async throws {
        let server = try SharedTestServer.get()
        let flags = server.rwsFlags
        let failures: [(arguments: [String], says: String)] = [
            (["cat"] + flags + [""], "path is empty"),
            (["ls"] + flags + [""], "path is empty"),
            (["delete"] + flags + [".", "--yes"], "not projects"),
            (["delete"] + flags + ["..", "--yes"], "not projects"),
            (["delete"] + flags + ["", "--yes"], "empty"),
            (["create"] + flags + ["../up"], "letters, digits"),
            (["rename"] + flags + ["", "a title"], "cannot be used"),
            (["rm-session"] + flags + ["a/b", "--yes"], "cannot be used"),
            (["history"] + flags + [""], "cannot be used"),
            (["exec", "--host", "me@box:port", "--", "true"], "bad host"),
            (["exec", "--host", "box", "-J", ",,", "--", "true"], "--jump"),
            (["exec", "--host", "box", "--port", "0", "--", "true"], "port"),
            (["exec"] + flags, "after --"),
            (["exec", "--timeout", "soon"] + flags + ["--", "true"], "--timeout"),
            (["exec", "--hots", "box", "--", "true"], "--hots"),
            (["shell", "--persist", "--command", "top"] + flags, "do not go together"),
            (["ask", "--fork"] + flags + ["hello"], "--fork"),
            (["history", "--last", "0"] + flags + ["abc"], "--last"),
            (["export", "--format", "pdf", "abc"], "pdf"),
            (["config", "show"], "no host"),
        ]
        for failure in failures {
            let outcome = await InProcessRWS.run(failure.arguments, home: home)
            #expect(outcome.status == 64, "\(failure.arguments): \(outcome.status) \(outcome.stderr)")
            #expect(outcome.stderr.contains(failure.says), "\(failure.arguments): \(outcome.stderr)")
        }
        let json = await InProcessRWS.run(["delete"] + flags + [".", "--yes", "--json"], home: home)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(json.status == 64 && object?["exitCode"] as? Int == 64, "\(json.stdout)")
    }

    @Test func aCommandLineTheParserRefusesIsAJSONObjectWhenItAsksForJSON() async throws {
        let refused = await InProcessRWS.run(["sessions", "--json", "--bogus"])
        let object = try JSONSerialization.jsonObject(with: Data(refused.stdout.utf8)) as? [String: Any]
        #expect(refused.status == 64 && object?["exitCode"] as? Int == 64, "\(refused.stdout)")
        #expect((object?["error"] as? String)?.contains("--bogus") == true, "\(refused.stdout)")
        #expect(refused.stderr.isEmpty, "\(refused.stderr)")
        // A --json after -- belongs to the remote command: the error stays text for a person.
        let remote = await InProcessRWS.run(["exec", "--hots", "box", "--", "tool", "--json"])
        #expect(remote.status == 64 && remote.stdout.isEmpty && remote.stderr.contains("--hots"), "\(remote.stderr)")
    }

    @Test func anEmptyPathOrABadNameIsReportedWithoutConnecting() async throws {
        // Port 1 refuses connections: a command that tried to connect would exit 255.
        let unreachable = ["--host", "nobody@127.0.0.1:1", "-F", "/dev/null"]
        for arguments in [["cat", ""], ["ls", ""], ["delete", ".", "--yes"], ["create", "a b"]] {
            let outcome = await InProcessRWS.run([arguments[0]] + unreachable + Array(arguments.dropFirst()), home: home)
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
        }
    }
}
