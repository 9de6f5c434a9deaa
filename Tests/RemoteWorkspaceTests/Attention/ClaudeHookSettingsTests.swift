import Foundation
import RWSTestSupport
import RemoteWorkspace
import SessionHistory
import Testing

/// Editing Claude Code's settings: rws's hooks go in after the user's own and come out exactly.
@Suite struct ClaudeHookSettingsTests {
    let hooks = try! ClaudeHookSettings(hookPath: "/home/dev/.claude/rws/hook.sh")

    static let existing = #"""
        {
            "model": "opus",
            "hooks": {
                "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
                "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]
            },
            "permissions": {"allow": ["Bash(npm test)"]}
        }
        """#

    @Test func installAppendsAfterTheUsersOwnHooksAndKeepsEveryKeyInOrder() throws {
        let settings = try JSONValue(parsing: Self.existing)
        let installed = try hooks.installing(into: settings)
        guard case .object(let root) = installed, case .object(let section) = installed["hooks"] else {
            Issue.record("not an object: \(installed)")
            return
        }
        #expect(root.members.map(\.key) == ["model", "hooks", "permissions"])
        #expect(Array(section.members.map(\.key).prefix(2)) == ["Stop", "PreToolUse"])
        #expect(Set(section.members.map(\.key)) == Set(["Stop", "PreToolUse"] + ClaudeHookSettings.events))
        let stop = try #require(installed["hooks"]?["Stop"]?.arrayValue)
        #expect(stop.count == 2)
        #expect(stop[0] == settings["hooks"]?["Stop"]?.arrayValue?[0])
        #expect(stop[1]["hooks"]?.arrayValue?.first?["command"]?.stringValue == hooks.command)
        #expect(installed["hooks"]?["PreToolUse"] == settings["hooks"]?["PreToolUse"])
        #expect(installed["permissions"] == settings["permissions"])
        #expect(hooks.installedEvents(in: installed) == ["Stop"] + ClaudeHookSettings.events.filter { $0 != "Stop" })
    }

    @Test func installingTwiceChangesNothingAndRemoveRestoresTheTree() throws {
        let settings = try JSONValue(parsing: Self.existing)
        let once = try hooks.installing(into: settings)
        #expect(try hooks.installing(into: once) == once)
        #expect(try ClaudeHookSettings.removing(from: once) == settings)
        #expect(try ClaudeHookSettings.removing(from: settings) == settings)
    }

    @Test func aMissingFileGetsOnlyTheHooksAndRemoveLeavesAnEmptyObject() throws {
        let installed = try hooks.installing(into: nil)
        #expect(installed["hooks"]?.arrayValue == nil)
        #expect(hooks.installedEvents(in: installed) == ClaudeHookSettings.events)
        #expect(try ClaudeHookSettings.removing(from: installed) == .object(JSONObject()))
    }

    @Test func anOlderInstallIsReplacedNotDoubled() throws {
        let old = try ClaudeHookSettings(hookPath: "/old/place/hook.sh")
        let settings = try old.installing(into: try JSONValue(parsing: Self.existing))
        #expect(
            ClaudeHookSettings.outdatedEvents(in: settings, current: hooks) == ["Stop"] + ClaudeHookSettings.events.filter { $0 != "Stop" })
        let updated = try hooks.installing(into: settings)
        #expect(ClaudeHookSettings.outdatedEvents(in: updated, current: hooks).isEmpty)
        #expect(updated["hooks"]?["Stop"]?.arrayValue?.count == 2)
        #expect(try ClaudeHookSettings.removing(from: updated) == (try JSONValue(parsing: Self.existing)))
    }

    @Test func aHookOfTheUserInTheSameGroupStaysWhenRwsLeaves() throws {
        var installed = try hooks.installing(into: nil)
        // The user added their own command next to rws's in the same group.
        let group = JSONValue.object(
            JSONObject([
                JSONMember(
                    "hooks",
                    .array([
                        .object(JSONObject([JSONMember("type", .string("command")), JSONMember("command", .string(hooks.command))])),
                        .object(JSONObject([JSONMember("type", .string("command")), JSONMember("command", .string("say done"))])),
                    ]))
            ]))
        if case .object(var root) = installed, case .object(var section) = root["hooks"] {
            section.members[section.members.firstIndex { $0.key == "Stop" }!].value = .array([group])
            root.members[0].value = .object(section)
            installed = .object(root)
        }
        let removed = try ClaudeHookSettings.removing(from: installed)
        #expect(removed["hooks"]?["Stop"]?.arrayValue?.first?["hooks"]?.arrayValue?.map { $0["command"]?.stringValue } == ["say done"])
    }

    @Test(arguments: [#"[1, 2]"#, #"{"hooks": []}"#, #"{"hooks": {"Stop": {}}}"#])
    func settingsNotShapedLikeClaudeCodesAreRefused(text: String) throws {
        #expect(throws: ClaudeHooksError.self) { try hooks.installing(into: try JSONValue(parsing: text)) }
    }

    @Test func theCommandQuotesThePathAndStepsAsideWhenTheHookIsGone() throws {
        let odd = try ClaudeHookSettings(hookPath: "/home/o'neil/my dir/.claude/rws/hook.sh")
        let hook = #"'/home/o'\''neil/my dir/.claude/rws/hook.sh'"#
        let folder = #"'/home/o'\''neil/my dir/.claude/rws'"#
        #expect(odd.command == "test ! -f \(hook) || sh \(hook) \(folder) # rws-hook")
        #expect(ClaudeHookSettings.isRWSCommand(odd.command))
    }

    /// Random settings as other tools write them: any keys, hooks of any events, in any order. (An
    /// empty `"hooks": {}` comes back as no `hooks` key: the tree alone cannot tell it from one rws
    /// made; the file's backup restores it byte for byte, see ``ClaudeHooksTests``.)
    @Test func installThenRemoveGivesBackAnySettingsUnchanged() throws {
        // Seeded: settings that break the round trip come back on every run.
        var generator = SeededRandom(seed: 0x5E771)
        for round in 0..<300 {
            let settings = Self.randomSettings(using: &generator)
            let installed = try hooks.installing(into: settings)
            #expect(hooks.installedEvents(in: installed).sorted() == ClaudeHookSettings.events.sorted(), "round \(round)")
            // Every hook of the user is still there, in its place.
            for member in Self.hookLists(settings) {
                let after = installed["hooks"]?[member.key]?.arrayValue ?? []
                #expect(Array(after.prefix(member.groups.count)) == member.groups, "round \(round)")
            }
            #expect(try ClaudeHookSettings.removing(from: installed) == settings, "round \(round): \(settings)")
        }
    }

    static func hookLists(_ settings: JSONValue) -> [(key: String, groups: [JSONValue])] {
        guard case .object(let hooks) = settings["hooks"] else { return [] }
        return hooks.members.map { ($0.key, $0.value.arrayValue ?? []) }
    }

    static func randomSettings(using generator: inout SeededRandom) -> JSONValue {
        let keys = ["model", "env", "permissions", "statusLine", "theme", "hooks", "cleanupPeriodDays", "ünïcode"]
        var members: [JSONMember] = []
        for key in keys.shuffled(using: &generator).prefix(Int.random(in: 0...keys.count, using: &generator)) {
            if key == "hooks" {
                let events = (ClaudeHookSettings.events + ["PreToolUse", "PostToolUse", "SubagentStop"]).shuffled(using: &generator)
                let lists = events.prefix(Int.random(in: 1...4, using: &generator)).map { event in
                    JSONMember(
                        event,
                        .array(
                            (0..<Int.random(in: 1...3, using: &generator)).map { index in
                                .object(
                                    JSONObject([
                                        JSONMember("matcher", .string(index == 0 ? "*" : "Bash")),
                                        JSONMember(
                                            "hooks",
                                            .array([
                                                .object(
                                                    JSONObject([
                                                        JSONMember("type", .string("command")),
                                                        JSONMember("command", .string("echo \(event) \(index) \"q\" # mine")),
                                                    ]))
                                            ])),
                                    ]))
                            }))
                }
                members.append(JSONMember("hooks", .object(JSONObject(Array(lists)))))
            } else {
                let values: [JSONValue] = [.string("x \(key)"), .number(30), .bool(true), .null, .array([.string("a"), .number(1.5)])]
                members.append(JSONMember(key, values.randomElement(using: &generator)!))
            }
        }
        return .object(JSONObject(members))
    }
}
