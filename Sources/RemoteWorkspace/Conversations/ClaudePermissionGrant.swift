import SessionHistory

/// One standing permission a person can grant when answering a permission question: a rule, a
/// working folder or a permission mode, kept for the session or in a settings file.
///
/// Claude Code suggests updates with each question (`permission_suggestions`); each becomes a
/// grant of its own, never a bundle, because together they can allow far more than any one of
/// them says: `acceptEdits` lets filesystem commands such as `rm` run without a question in the
/// working folders, and adding a folder makes it one. For a file edit with no rule suggested, rws
/// adds the narrowest grant itself: an `Edit` rule for that one file, for this session (Claude
/// Code's rule syntax for an absolute path is `//path`; a `Write(…)` rule is accepted and never
/// matches).
public struct ClaudePermissionGrant: Sendable, Equatable {
    /// What a grant changes.
    public enum Kind: Sendable, Equatable {
        /// Rules as Claude Code's settings write them (`Bash(npm test *)`, `Edit(//srv/x/a.txt)`),
        /// and whether they allow, deny or ask.
        case rules([String], behavior: String)
        /// A permission mode for the session (or the settings' `defaultMode`).
        case mode(ClaudePermissionMode)
        /// Folders that become working folders.
        case directories([String])
        /// An update of a type rws does not know: shown by its type, sent as it came.
        case other(type: String)
    }

    /// The update sent in the answer's `updatedPermissions`, exactly as Claude Code sent it (or
    /// as rws made it).
    public var update: JSONValue
    /// What it changes.
    public var kind: Kind
    /// Where Claude Code keeps it: `session`, `localSettings`, `projectSettings`, `userSettings`…
    public var destination: String
    /// Whether rws made it rather than Claude Code suggesting it.
    public var isMadeByRWS: Bool

    /// A grant from one of Claude Code's suggestions.
    public init(suggestion: JSONValue) {
        update = suggestion
        destination = suggestion["destination"]?.stringValue ?? "session"
        isMadeByRWS = false
        switch suggestion["type"]?.stringValue ?? "" {
        case "addRules", "replaceRules":
            let rules = (suggestion["rules"]?.arrayValue ?? []).map { rule in
                let tool = rule["toolName"]?.stringValue ?? "?"
                return rule["ruleContent"]?.stringValue.map { "\(tool)(\($0))" } ?? tool
            }
            kind = .rules(rules, behavior: suggestion["behavior"]?.stringValue ?? "allow")
        case "setMode": kind = .mode(ClaudePermissionMode(rawValue: suggestion["mode"]?.stringValue ?? "?"))
        case "addDirectories": kind = .directories((suggestion["directories"]?.arrayValue ?? []).compactMap(\.stringValue))
        case let type: kind = .other(type: type)
        }
    }

    /// The narrowest grant for a file edit (`Write`, `Edit`, `MultiEdit`, `NotebookEdit` with an
    /// absolute path): this file may be edited or written again without a question, for this
    /// session only. Nil for any other call.
    public static func fileRule(toolName: String, input: JSONValue) -> ClaudePermissionGrant? {
        guard ["Write", "Edit", "MultiEdit", "NotebookEdit"].contains(toolName),
            let path = input["file_path"]?.stringValue ?? input["notebook_path"]?.stringValue, path.hasPrefix("/")
        else { return nil }
        let rule = JSONValue.object(
            JSONObject([JSONMember("toolName", .string("Edit")), JSONMember("ruleContent", .string("/" + path))]))
        let update = JSONValue.object(
            JSONObject([
                JSONMember("type", .string("addRules")), JSONMember("rules", .array([rule])), JSONMember("behavior", .string("allow")),
                JSONMember("destination", .string("session")),
            ]))
        var grant = ClaudePermissionGrant(suggestion: update)
        grant.isMadeByRWS = true
        return grant
    }

    /// The grants a person may choose from for a call, the narrowest first: rules (rws's file
    /// rule first when Claude Code suggests no rule), then folders, then modes; a suggestion
    /// given twice is listed once.
    public static func choices(toolName: String, input: JSONValue, suggestions: [JSONValue]) -> [ClaudePermissionGrant] {
        var grants: [ClaudePermissionGrant] = []
        for suggestion in suggestions where !grants.contains(where: { $0.update == suggestion }) {
            grants.append(ClaudePermissionGrant(suggestion: suggestion))
        }
        if !grants.contains(where: \.isRule), let rule = fileRule(toolName: toolName, input: input) { grants.insert(rule, at: 0) }
        return grants.enumerated().sorted { ($0.element.breadth, $0.offset) < ($1.element.breadth, $1.offset) }.map(\.element)
    }

    /// The grant an unqualified "always" takes: the first of `grants` that is not a mode change (a
    /// mode is taken only when chosen by itself); nil when there is none.
    public static func narrowest(of grants: [ClaudePermissionGrant]) -> ClaudePermissionGrant? {
        grants.first { !$0.isModeChange }
    }

    /// Whether it adds rules.
    public var isRule: Bool {
        if case .rules = kind { return true }
        return false
    }

    /// Whether it changes the permission mode.
    public var isModeChange: Bool {
        if case .mode = kind { return true }
        return false
    }

    /// Rules before folders before modes, whatever else comes last.
    private var breadth: Int {
        switch kind {
        case .rules: 0
        case .directories: 1
        case .mode: 2
        case .other: 3
        }
    }

    /// What it is, in a few words: "allow Bash(npm test *)", "switch to the acceptEdits mode".
    public var what: String {
        switch kind {
        case .rules(let rules, let behavior): "\(behavior) " + rules.joined(separator: ", ")
        case .mode(let mode): "switch to the \(mode.rawValue) permission mode"
        case .directories(let folders): "add " + folders.joined(separator: ", ") + " as working folder" + (folders.count == 1 ? "" : "s")
        case .other(let type): "apply Claude Code's \(type.isEmpty ? "(untyped)" : type) update"
        }
    }

    /// What it lets run without a question (or what it refuses), in plain words.
    public var allows: String {
        switch kind {
        case .rules(let rules, let behavior): Self.describe(rules, behavior: behavior)
        case .mode(let mode): Self.describe(mode)
        case .directories:
            "Claude Code works there as in the project: it reads there without asking, and edits and commands there are asked "
                + "as in the project (in the acceptEdits mode they run without asking)"
        case .other: "what Claude Code's update says; rws cannot say more"
        }
    }

    /// Where it is kept, in words: "for this session", "in this project's local settings (…)".
    public var keptIn: String {
        switch destination {
        case "session": "for this session"
        case "localSettings": "in this project's local settings (.claude/settings.local.json)"
        case "projectSettings": "in this project's settings (.claude/settings.json)"
        case "userSettings": "in your settings on the box (~/.claude/settings.json)"
        case "cliArg": "for this run"
        default: "in \(destination)"
        }
    }

    /// The grant in one line: what, where it is kept, and what it allows.
    public var summary: String { "\(what), kept \(keptIn): \(allows)" }

    private static func describe(_ rules: [String], behavior: String) -> String {
        let each = rules.map { rule -> String in
            guard let open = rule.firstIndex(of: "("), rule.hasSuffix(")") else { return "every \(rule) call" }
            let tool = String(rule[..<open])
            let content = String(rule[rule.index(after: open)..<rule.index(before: rule.endIndex)])
            let path = content.hasPrefix("//") ? String(content.dropFirst()) : content
            switch tool {
            case "Bash":
                if content.hasSuffix(" *") || content.hasSuffix(":*") { return "commands starting with `\(content.dropLast(2))`" }
                return "the command `\(content)`"
            case "Edit", "Write": return path.hasSuffix("/**") ? "edits of files under \(path.dropLast(3))" : "edits of \(path)"
            case "Read": return path.hasSuffix("/**") ? "reads of files under \(path.dropLast(3))" : "reads of \(path)"
            default: return "\(tool) calls matching \(content)"
            }
        }.joined(separator: "; ")
        switch behavior {
        case "deny": return "\(each): denied without asking"
        case "ask": return "\(each): always asked"
        default: return "\(each): run without asking (nothing else)"
        }
    }

    private static func describe(_ mode: ClaudePermissionMode) -> String {
        switch mode.rawValue {
        case "acceptEdits":
            "from now on file edits, and filesystem commands such as mkdir, touch, rm, mv and cp, in the working folders run "
                + "without asking, for every file there"
        case "bypassPermissions": "from now on every tool runs without asking"
        case "auto": "from now on Claude Code decides itself which calls need a question, and asks none"
        case "dontAsk": "from now on every tool no rule allows is denied without asking"
        case "plan": "from now on Claude Code only plans: nothing that changes files runs"
        case "default", "manual": "from now on every tool that changes something is asked"
        default: "what the \(mode.rawValue) mode means to Claude Code on the box (rws does not know it)"
        }
    }
}
