import SessionHistory

/// A permission update Claude Code suggests with a question (its `permission_suggestions`): what
/// "always" would mean for this call, such as a rule `Bash(npm test *)` kept in the project's
/// local settings. Sent back unchanged in `updatedPermissions`, so that Claude Code itself
/// enforces and persists it.
public struct ClaudePermissionSuggestion: Sendable, Equatable {
    /// The update exactly as Claude Code sent it.
    public var json: JSONValue

    /// Wraps one element of `permission_suggestions`.
    public init(json: JSONValue) {
        self.json = json
    }

    /// The update's kind: `addRules`, `setMode`, `addDirectories`…
    public var type: String { json["type"]?.stringValue ?? "" }

    /// Where Claude Code keeps it: `session`, `localSettings`, `projectSettings`, `userSettings`…
    public var destination: String { json["destination"]?.stringValue ?? "session" }

    /// The rules it adds, written as in Claude Code's settings: `Bash(npm test *)`, `Edit`.
    public var rules: [String] {
        (json["rules"]?.arrayValue ?? []).map { rule in
            let tool = rule["toolName"]?.stringValue ?? "?"
            return rule["ruleContent"]?.stringValue.map { "\(tool)(\($0))" } ?? tool
        }
    }

    /// The update in words: "allow Bash(npm test *), kept in this project's local settings".
    public var summary: String {
        let what: String
        switch type {
        case "addRules", "replaceRules": what = "\(json["behavior"]?.stringValue ?? "allow") " + rules.joined(separator: ", ")
        case "setMode": what = "switch to the \(json["mode"]?.stringValue ?? "?") permission mode"
        case "addDirectories":
            what = "allow working in " + (json["directories"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", ")
        default: what = type
        }
        return what + ", kept " + Self.place(destination)
    }

    private static func place(_ destination: String) -> String {
        switch destination {
        case "session": return "for this session"
        case "localSettings": return "in this project's local settings (.claude/settings.local.json)"
        case "projectSettings": return "in this project's settings (.claude/settings.json)"
        case "userSettings": return "in your settings on the box (~/.claude/settings.json)"
        case "cliArg": return "for this run"
        default: return "in \(destination)"
        }
    }
}
