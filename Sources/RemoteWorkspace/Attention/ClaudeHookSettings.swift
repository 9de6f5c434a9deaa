import SSHClient
import SessionHistory

/// rws's entries in a Claude Code settings file: what `install` adds and `remove` takes out.
///
/// Pure edits of the parsed JSON: the user's own keys, hooks and their order are kept; rws's
/// hooks are recognised by the ``marker`` at the end of their command, so a remove finds the
/// entries of any earlier install.
public struct ClaudeHookSettings: Sendable, Equatable {
    /// The Claude Code events rws listens to, in the order they are added.
    public static let events = ["SessionStart", "UserPromptSubmit", "Notification", "PermissionRequest", "Stop", "SessionEnd"]

    /// The shell comment that ends every hook command rws adds.
    public static let marker = "# rws-hook"

    /// How long Claude Code lets the hook run, in seconds: the longest a permission request waits
    /// for a watcher's answer, with room to spare.
    public static let timeoutSeconds = 600

    /// The command Claude Code runs for each event.
    public let command: String

    /// The hook entries that run `hookPath` on the box.
    ///
    /// - Parameter hookPath: The installed hook script, absolute (quoted here).
    /// - Throws: `ShellQuotingError` for a path holding a NUL character.
    public init(hookPath: String) throws(ShellQuotingError) {
        let quoted = try ShellQuoting.quote(hookPath)
        let folder = try ShellQuoting.quote(
            hookPath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"))
        // A hook folder removed while a settings file still names it costs nothing: no error shown.
        command = "test ! -f \(quoted) || sh \(quoted) \(folder) \(Self.marker)"
    }

    /// Whether `command` is one that rws added (any version).
    public static func isRWSCommand(_ command: String) -> Bool {
        command.hasSuffix(marker)
    }

    /// `settings` with rws's hook on every event in ``events``; unchanged where it is already there.
    ///
    /// - Parameter settings: The file's parsed content; nil for a missing or empty file.
    /// - Throws: ``ClaudeHooksError/unexpectedSettings(path:reason:)`` (without a path) when the
    ///   file's shape is not Claude Code's.
    public func installing(into settings: JSONValue?) throws(ClaudeHooksError) -> JSONValue {
        var root = try Self.object(settings ?? .object(JSONObject()), "the file is not a JSON object")
        var hooks = try Self.object(root["hooks"] ?? .object(JSONObject()), "\"hooks\" is not an object")
        for event in Self.events {
            var groups = try Self.array(hooks[event] ?? .array([]), "\"hooks\".\"\(event)\" is not an array")
            if groups.contains(where: { Self.commands(in: $0).contains(command) }) { continue }
            // Outdated entries of an earlier install go; the current one is appended after the user's own.
            groups = groups.compactMap(Self.withoutRWSHooks)
            groups.append(entry(for: event))
            hooks.set(event, .array(groups))
        }
        root.set("hooks", .object(hooks))
        return .object(root)
    }

    /// `settings` without any hook rws added; a group, event list or `hooks` object that only
    /// held rws's hooks goes with them.
    public static func removing(from settings: JSONValue) throws(ClaudeHooksError) -> JSONValue {
        var root = try object(settings, "the file is not a JSON object")
        guard let hooksValue = root["hooks"] else { return settings }
        var hooks = try object(hooksValue, "\"hooks\" is not an object")
        var changed = false
        for member in hooks.members {
            guard case .array(let groups) = member.value else { continue }
            let kept = groups.compactMap(withoutRWSHooks)
            guard kept != groups else { continue }
            changed = true
            if kept.isEmpty { hooks.remove(member.key) } else { hooks.set(member.key, .array(kept)) }
        }
        guard changed else { return settings }
        if hooks.members.isEmpty { root.remove("hooks") } else { root.set("hooks", .object(hooks)) }
        return .object(root)
    }

    /// The events in `settings` that run this exact command.
    public func installedEvents(in settings: JSONValue?) -> [String] {
        guard let hooks = settings?["hooks"], case .object(let object) = hooks else { return [] }
        return object.members.compactMap { member in
            guard case .array(let groups) = member.value else { return nil }
            return groups.contains { Self.commands(in: $0).contains(command) } ? member.key : nil
        }
    }

    /// The events in `settings` with a hook of rws that is not this exact command (an older install).
    public static func outdatedEvents(in settings: JSONValue?, current: ClaudeHookSettings) -> [String] {
        guard let hooks = settings?["hooks"], case .object(let object) = hooks else { return [] }
        return object.members.compactMap { member in
            guard case .array(let groups) = member.value else { return nil }
            let ours = groups.flatMap(commands).filter(isRWSCommand)
            return ours.contains { $0 != current.command } ? member.key : nil
        }
    }

    private func entry(for event: String) -> JSONValue {
        var members: [JSONMember] = []
        // Tool events filter by tool name: every tool.
        if event == "PermissionRequest" { members.append(JSONMember("matcher", .string("*"))) }
        let hook = JSONObject([
            JSONMember("type", .string("command")),
            JSONMember("command", .string(command)),
            JSONMember("timeout", .number(Double(Self.timeoutSeconds))),
        ])
        members.append(JSONMember("hooks", .array([.object(hook)])))
        return .object(JSONObject(members))
    }

    /// The commands of one matcher group.
    private static func commands(in group: JSONValue) -> [String] {
        guard let hooks = group["hooks"]?.arrayValue else { return [] }
        return hooks.compactMap { $0["command"]?.stringValue }
    }

    /// `group` without rws's hooks; nil when nothing else was in it.
    private static func withoutRWSHooks(_ group: JSONValue) -> JSONValue? {
        guard case .object(var object) = group, let hooks = object["hooks"]?.arrayValue else { return group }
        let kept = hooks.filter { hook in !(hook["command"]?.stringValue.map(isRWSCommand) ?? false) }
        if kept.count == hooks.count { return group }
        if kept.isEmpty { return nil }
        object.set("hooks", .array(kept))
        return .object(object)
    }

    private static func object(_ value: JSONValue, _ reason: String) throws(ClaudeHooksError) -> JSONObject {
        guard case .object(let object) = value else { throw .unexpectedSettings(path: "", reason: reason) }
        return object
    }

    private static func array(_ value: JSONValue, _ reason: String) throws(ClaudeHooksError) -> [JSONValue] {
        guard case .array(let array) = value else { throw .unexpectedSettings(path: "", reason: reason) }
        return array
    }
}

extension JSONObject {
    /// Replaces the value of `key` in place, or appends the member when it is missing.
    mutating func set(_ key: String, _ value: JSONValue) {
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(JSONMember(key, value))
        }
    }

    /// Removes every member named `key`.
    mutating func remove(_ key: String) {
        members.removeAll { $0.key == key }
    }
}
