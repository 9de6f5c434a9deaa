import Foundation

/// One-line descriptions of tool calls and results, for the text and Markdown renderings.
package enum ToolCallSummary {
    /// `Bash(git status)`, `Read(src/main.swift)`, `Task(Explore the parser)`, ….
    package static func oneLine(_ call: ToolUseBlock, width: Int = 100) -> String {
        // Only the start of a long argument can show: fold no more of it than that.
        let argument =
            keyArgument(of: call).map { FirstPromptRules.fold($0.utf8.count > 8 * width ? String($0.prefix(4 * width)) : $0) } ?? ""
        let text = argument.isEmpty ? call.name : "\(call.name)(\(argument))"
        return clip(text, to: width)
    }

    /// The argument that says what a call does, by tool; else the first string argument.
    static func keyArgument(of call: ToolUseBlock) -> String? {
        guard let input = call.input.value, case .object(let object) = input else { return nil }
        let keys = ["command", "file_path", "notebook_path", "path", "pattern", "url", "query", "description", "prompt", "skill"]
        for key in keys {
            if let value = object[key]?.stringValue { return value }
        }
        if let todos = object["todos"]?.arrayValue { return "\(todos.count) todos" }
        return object.members.lazy.compactMap(\.value.stringValue).first
    }

    /// `12 lines`, `error: File not found`, `empty`, …: a result in a few words.
    package static func outcome(_ outcome: ToolOutcome, width: Int = 60) -> String {
        let text = outcome.result.text
        let images = outcome.result.content.filter { if case .image = $0 { return true } else { return false } }.count
        if outcome.result.isError { return clip("error: " + FirstPromptRules.fold(text), to: width) }
        var parts: [String] = []
        let lines = TextFolding.lineCount(text)
        if lines > 0 { parts.append(lines == 1 ? "1 line" : "\(lines) lines") }
        if images > 0 { parts.append(images == 1 ? "1 image" : "\(images) images") }
        return parts.isEmpty ? "empty" : parts.joined(separator: ", ")
    }

    /// `text` cut to `width` characters with `…`.
    static func clip(_ text: String, to width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(1, width - 1))) + "\u{2026}"
    }
}

/// Folding long text to a few lines.
enum TextFolding {
    /// Lines in `text`, counted on its UTF-8 bytes (Character-wise splitting is far slower).
    static func lineCount(_ text: String) -> Int {
        guard !text.isEmpty else { return 0 }
        if let count = text.utf8.withContiguousStorageIfAvailable({ bytes in bytes.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 } }) {
            return count
        }
        return text.utf8.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    }

    /// The first `limit` lines, and how many were left out.
    static func fold(_ text: String, limit: Int?) -> (text: String, hiddenLines: Int) {
        guard let limit else { return (text, 0) }
        var seen = 0
        var index = text.utf8.startIndex
        while index < text.utf8.endIndex {
            if text.utf8[index] == 0x0A {
                seen += 1
                if seen == limit { return (String(text[..<index]), lineCount(text) - limit) }
            }
            index = text.utf8.index(after: index)
        }
        return (text, 0)
    }

    /// `2025-11-17 11:23:23` from `2025-11-17T11:23:23.498Z` (UTC, as written).
    static func shortTime(_ timestamp: String?) -> String {
        guard let timestamp, timestamp.count >= 19 else { return "" }
        return String(timestamp.prefix(19).map { $0 == "T" ? " " : $0 })
    }

    /// `[2026-01-02 10:00:00] ` before a label, or nothing for a record without a usable timestamp.
    static func bracketedTime(_ timestamp: String?) -> String {
        let time = shortTime(timestamp)
        return time.isEmpty ? "" : "[\(time)] "
    }

    /// ` · 2026-01-02 10:00:00` after a heading, or nothing for a record without a usable timestamp.
    static func dottedTime(_ timestamp: String?) -> String {
        let time = shortTime(timestamp)
        return time.isEmpty ? "" : " · \(time)"
    }
}
