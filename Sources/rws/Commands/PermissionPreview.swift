import RemoteWorkspace
import SessionHistory

/// What a permission question shows above "Allow …?": what the tool will do, in full enough to
/// judge it (the command and its description, the file and its first lines, the diff of an edit,
/// the URL), cut with a count of what was left out, every character from the box neutralised.
struct PermissionPreview {
    /// Lines of one block shown at most (a command, a file's start, a diff).
    static let maxLines = 20
    /// Characters of one line shown at most.
    static let maxColumns = 200

    let toolName: String
    let input: JSONValue
    /// Claude Code's short description of the call.
    let description: String?
    /// The path outside the allowed folders that made Claude Code ask.
    let blockedPath: String?
    /// Whether to colour a diff (stderr is a terminal).
    let color: Bool

    /// The preview of a question of `rws ask`.
    init(request: ClaudePermissionRequest, color: Bool) {
        (toolName, input, description, blockedPath) = (request.toolName, request.input, request.description, request.blockedPath)
        self.color = color
    }

    /// The preview of a request seen by `rws watch` (its long strings cut by the hook).
    init(request: ClaudeAttentionRequest, color: Bool) {
        (toolName, input, description, blockedPath) = (request.toolName, request.input, nil, nil)
        self.color = color
    }

    /// The lines to print, each ending in a newline; empty when the question line says it all.
    var text: String {
        var lines: [String]
        switch toolName {
        case "Bash":
            let command = input["command"]?.stringValue ?? ""
            lines = Self.block(command, prefix: "  $ ", continuation: "    ")
            if let description = input["description"]?.stringValue ?? description {
                lines.append("  # " + Self.clip(description.safeLine))
            }
        case "Write":
            let content = input["content"]?.stringValue ?? ""
            let lineCount = content.split(separator: "\n", omittingEmptySubsequences: false).count
            lines = ["  \(Self.path(input)): \(content.utf8.count) bytes, \(lineCount) lines"] + Self.block(content, prefix: "  │ ")
        case "Edit":
            lines = ["  \(Self.path(input))"] + diff(input)
        case "MultiEdit":
            lines = ["  \(Self.path(input))"] + (input["edits"]?.arrayValue ?? []).flatMap(diff)
        case "WebFetch":
            lines = ["  " + Self.clip((input["url"]?.stringValue ?? "").safeLine)]
            if let prompt = input["prompt"]?.stringValue { lines.append("  # " + Self.clip(prompt.safeLine)) }
        case let name where name.hasPrefix("mcp__"):
            lines = [Self.mcpName(name)] + Self.members(of: input)
        default:
            lines = Self.members(of: input)
        }
        if let blocked = blockedPath { lines.append("  (outside the allowed folders: \(blocked.safeLine))") }
        return lines.map { $0 + "\n" }.joined()
    }

    private func diff(_ edit: JSONValue) -> [String] {
        let old = edit["old_string"]?.stringValue ?? ""
        let new = edit["new_string"]?.stringValue ?? ""
        let all = edit["replace_all"]?.boolValue == true ? ["  (every occurrence)"] : []
        let lines = LineDiff.unified(old: old.safeText, new: new.safeText)
        let shown = lines.prefix(Self.maxLines).map { line -> String in
            let clipped = "  " + Self.clip(line)
            guard color, let first = line.first, first == "-" || first == "+" else { return clipped }
            return (first == "-" ? "\u{1B}[31m" : "\u{1B}[32m") + clipped + "\u{1B}[0m"
        }
        return all + shown + Self.more(lines.count - shown.count, "lines of the diff")
    }

    /// Every member of a tool's input (MCP and other tools), one line each.
    private static func members(of input: JSONValue) -> [String] {
        guard case .object(let object) = input else { return ["  " + clip(JSONWriter.string(from: input).safeLine)] }
        let shown = object.members.prefix(maxLines).map { member in
            "  \(member.key.safeLine): " + clip((member.value.stringValue ?? JSONWriter.string(from: member.value)).safeLine)
        }
        return shown + more(object.members.count - shown.count, "more fields")
    }

    /// `mcp__SERVER__TOOL` said in words; a name of another shape as it is.
    private static func mcpName(_ name: String) -> String {
        let parts = name.dropFirst("mcp__".count).split(separator: "__", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return "  MCP tool " + clip(name.safeLine) }
        return "  MCP server \(clip(String(parts[0]).safeLine)), tool \(clip(String(parts[1]).safeLine))"
    }

    private static func path(_ input: JSONValue) -> String {
        (input["file_path"]?.stringValue ?? input["path"]?.stringValue ?? "?").safeLine
    }

    /// `text` as lines under `prefix`, cut at ``maxLines`` with a count of the rest.
    static func block(_ text: String, prefix: String, continuation: String? = nil) -> [String] {
        let lines = text.safeText.split(separator: "\n", omittingEmptySubsequences: false)
        let shown = lines.prefix(maxLines).enumerated().map { index, line in
            (index == 0 ? prefix : continuation ?? prefix) + clip(String(line))
        }
        return shown + more(lines.count - shown.count, "more lines")
    }

    private static func more(_ count: Int, _ what: String) -> [String] {
        count > 0 ? ["  … \(count) \(what) not shown"] : []
    }

    static func clip(_ line: String) -> String {
        line.count <= maxColumns ? line : String(line.prefix(maxColumns)) + "… (\(line.count - maxColumns) more characters)"
    }
}
