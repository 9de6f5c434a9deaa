import Foundation
import RWSTestSupport
import RemoteWorkspace
import SessionHistory
import Testing

/// `ClaudeHooks` on the box: settings as users and other tools left them, edited over SSH on
/// OpenSSH and dropbear, and by this machine's `/bin/sh`.
@Suite(.timeLimit(.minutes(2))) struct ClaudeHooksTests {
    /// A settings file as another tool writes it: four-space indentation, keys in its order, a hook of the user's.
    static let foreign = """
        {
            "permissions": {
                "allow": ["Bash(npm test)"]
            },
            "hooks": {
                "Stop": [
                    {"hooks": [{"type": "command", "command": "notify-send 'done' # mine"}]}
                ]
            },
            "model": "sonnet"
        }
        """

    @Test(arguments: ScriptPlace.allCases)
    func installKeepsTheUsersSettingsAndRemoveRestoresThemByteForByte(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        let settings = sandbox.claudeDirectory + "/settings.json"
        try Data(Self.foreign.utf8).write(to: URL(fileURLWithPath: settings))

        try await sandbox.withHooks { hooks in
            let change = try await hooks.install()
            #expect(change == .installed(settingsPath: settings, backupPath: settings + ".rws-backup"))
            let installed = try JSONValue(parsing: try Data(contentsOf: URL(fileURLWithPath: settings)))
            #expect(installed["permissions"] == (try JSONValue(parsing: Self.foreign))["permissions"])
            let first = installed["hooks"]?["Stop"]?.arrayValue?.first?["hooks"]?.arrayValue?.first
            #expect(first?["command"]?.stringValue == "notify-send 'done' # mine")
            #expect(try String(contentsOfFile: settings + ".rws-backup", encoding: .utf8) == Self.foreign)
            #expect(FileManager.default.fileExists(atPath: sandbox.claudeDirectory + "/rws/hook.sh"))

            let status = try await hooks.status()
            #expect(status.isComplete && status.installedEvents.count == ClaudeHookSettings.events.count, "\(status)")
            #expect(try await hooks.install() == .unchanged(settingsPath: settings))

            #expect(try await hooks.remove() == .removed(settingsPath: settings, restoredBackup: true))
            #expect(try String(contentsOfFile: settings, encoding: .utf8) == Self.foreign)
            #expect(!FileManager.default.fileExists(atPath: settings + ".rws-backup"))
            #expect(!FileManager.default.fileExists(atPath: sandbox.claudeDirectory + "/rws"))
            #expect(try await hooks.status().installedEvents.isEmpty)
        }
    }

    @Test(arguments: ScriptPlace.allCases)
    func aSettingsFileEditedAfterTheInstallKeepsTheEditWhenRwsLeaves(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        let settings = sandbox.claudeDirectory + "/settings.json"
        try Data(Self.foreign.utf8).write(to: URL(fileURLWithPath: settings))

        try await sandbox.withHooks { hooks in
            _ = try await hooks.install()
            // Claude Code adds a rule meanwhile ("always allow").
            var edited = try JSONValue(parsing: try Data(contentsOf: URL(fileURLWithPath: settings)))
            if case .object(var root) = edited {
                root.members.append(JSONMember("env", .object(JSONObject([JSONMember("A", .string("1"))]))))
                edited = .object(root)
            }
            try Data(JSONWriter.string(from: edited, pretty: true).utf8).write(to: URL(fileURLWithPath: settings))

            #expect(try await hooks.remove() == .removed(settingsPath: settings, restoredBackup: false))
            let left = try JSONValue(parsing: try Data(contentsOf: URL(fileURLWithPath: settings)))
            #expect(left["env"]?["A"]?.stringValue == "1")
            #expect(left["hooks"] == (try JSONValue(parsing: Self.foreign))["hooks"])
            #expect(left["model"]?.stringValue == "sonnet")
        }
    }

    @Test(arguments: ScriptPlace.allCases)
    func aSettingsFileThatIsNotJSONIsLeftUntouched(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        let settings = sandbox.claudeDirectory + "/settings.json"
        let broken = "{\n  \"model\": \"opus\",\n"
        try Data(broken.utf8).write(to: URL(fileURLWithPath: settings))

        await sandbox.withHooksExpectingError { hooks in
            _ = try await hooks.install()
        } check: { error in
            guard case .invalidSettings(let path, _) = error as? ClaudeHooksError else { return false }
            return path == settings && String(describing: error).contains("left untouched")
        }
        #expect(try String(contentsOfFile: settings, encoding: .utf8) == broken)
        #expect(!FileManager.default.fileExists(atPath: sandbox.claudeDirectory + "/rws"))
        #expect(!FileManager.default.fileExists(atPath: settings + ".rws-backup"))
    }

    @Test(arguments: ScriptPlace.allCases)
    func aProjectInstallWritesItsLocalSettingsAndRemoveTakesTheFileAwayAgain(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        let project = sandbox.root + "/my app"
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        let local = project + "/.claude/settings.local.json"

        try await sandbox.withHooks { hooks in
            #expect(try await hooks.install(project: project) == .installed(settingsPath: local, backupPath: nil))
            let installed = try JSONValue(parsing: try Data(contentsOf: URL(fileURLWithPath: local)))
            let command = installed["hooks"]?["Stop"]?.arrayValue?.first?["hooks"]?.arrayValue?.first?["command"]?.stringValue ?? ""
            #expect(command.contains(sandbox.claudeDirectory + "/rws/hook.sh"), "\(command)")
            #expect(try await hooks.remove(project: project) == .removed(settingsPath: local, restoredBackup: false))
            #expect(!FileManager.default.fileExists(atPath: local))
        }
        await sandbox.withHooksExpectingError { hooks in
            _ = try await hooks.install(project: sandbox.root + "/none")
        } check: {
            ($0 as? ClaudeHooksError) == .projectNotFound(path: sandbox.root + "/none")
        }
    }

    @Test(arguments: ScriptPlace.localAndDefault)
    func aSymlinkedSettingsFileStaysALink(place: ScriptPlace) async throws {
        let sandbox = try TestBox(place: place)
        defer { sandbox.remove() }
        let target = sandbox.root + "/dotfiles-settings.json"
        try Data("{}\n".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: sandbox.claudeDirectory + "/settings.json", withDestinationPath: target)

        try await sandbox.withHooks { hooks in
            _ = try await hooks.install()
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: sandbox.claudeDirectory + "/settings.json") == target)
            #expect(try String(contentsOfFile: target, encoding: .utf8).contains("rws-hook"))
            _ = try await hooks.remove()
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "{}\n")
        }
    }
}
