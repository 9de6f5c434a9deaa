/// Claude Code's rules for the "first prompt" that titles a session (SDK
/// `_extract_first_prompt_from_head`): skip tool results, meta and compact-summary lines,
/// command wrappers and generated text; fold newlines; cut at 200 characters.
enum FirstPromptRules {
    static let maximumLength = 200

    /// The title text from user records in file order, or the first command's name as a fallback.
    static func firstPrompt(in records: [SessionRecord]) -> (text: String, isCommand: Bool)? {
        var commandFallback: String?
        for record in records {
            guard let user = record.user, !record.envelope.isMeta, !user.isCompactSummary,
                !user.content.contains(where: { $0.toolResult != nil })
            else { continue }
            for text in user.content.compactMap(\.text) {
                let folded = fold(text)
                guard !folded.isEmpty else { continue }
                if let name = UserTurnClassifier.commandName(in: folded) {
                    commandFallback = commandFallback ?? name
                    continue
                }
                if isGenerated(folded) { continue }
                return (truncate(folded), false)
            }
        }
        return commandFallback.map { ($0, true) }
    }

    /// Whether `text` can title a session as a prompt: not empty, no command, not generated.
    static func isPromptText(_ text: String) -> Bool {
        let folded = fold(text)
        return !folded.isEmpty && UserTurnClassifier.commandName(in: folded) == nil && !isGenerated(folded)
    }

    /// Newlines become spaces; surrounding whitespace is removed.
    static func fold(_ text: String) -> String {
        // On the UTF-8 bytes: "\n" and "\r\n" are the only characters replaced (a "\n" is always a
        // character of its own), and walking bytes is far faster than walking characters.
        guard text.utf8.contains(0x0A) else { return text.trimmed }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var afterCR = false
        for byte in text.utf8 {
            if byte == 0x0A {
                if afterCR { bytes.removeLast() }
                bytes.append(0x20)
            } else {
                bytes.append(byte)
            }
            afterCR = byte == 0x0D
        }
        return String(decoding: bytes, as: UTF8.self).trimmed
    }

    /// At most 200 characters, cut ones ending in `…`.
    static func truncate(_ text: String) -> String {
        guard text.count > maximumLength else { return text }
        return String(text.prefix(maximumLength)).trimmed + "\u{2026}"
    }

    private static func isGenerated(_ text: String) -> Bool {
        let prefixes = ["<local-command-stdout>", "<session-start-hook>", "<tick>", "<goal>", "[Request interrupted by user"]
        if prefixes.contains(where: text.hasPrefix) { return true }
        return isOnly(text, tag: "ide_opened_file") || isOnly(text, tag: "ide_selection")
    }

    /// Whether the text is one `<tag>…</tag>` element and nothing else.
    private static func isOnly(_ text: String, tag: String) -> Bool {
        let trimmed = text.trimmed
        return trimmed.hasPrefix("<\(tag)>") && trimmed.hasSuffix("</\(tag)>")
    }
}
