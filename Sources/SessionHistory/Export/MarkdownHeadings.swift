/// ATX headings (`# Plan`) written inside a message, moved below the export's own headings so
/// a message's `#` never reads as a new document or a new message.
enum MarkdownHeadings {
    /// `text` with each heading outside code fences deepened by `level` (at most `######`).
    static func demote(_ text: String, below level: Int) -> String {
        guard text.utf8.contains(UInt8(ascii: "#")) else { return text }
        var fence: Substring?
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil }
                lines.append(line)
            } else if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = trimmed.prefix(3)
                lines.append(line)
            } else if line.count - trimmed.count <= 3, let deeper = deepened(trimmed, by: level) {
                lines.append(deeper)
            } else {
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `## Title` as `####…` with `level` more marks, or nil for a line that is no heading.
    private static func deepened(_ line: Substring, by level: Int) -> Substring? {
        let marks = line.prefix { $0 == "#" }.count
        guard (1...6).contains(marks) else { return nil }
        let rest = line.dropFirst(marks)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        return Substring(String(repeating: "#", count: min(marks + level, 6))) + rest
    }
}
