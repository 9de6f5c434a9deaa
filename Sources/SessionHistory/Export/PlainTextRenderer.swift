extension Conversation {
    /// The conversation as plain text for a terminal: one header line per message with its time,
    /// tool calls one line each with their outcome, long tool output folded.
    public func plainText(options: RenderOptions = RenderOptions()) -> String {
        var text = ""
        plainText(options: options) { text += $0 }
        return text
    }

    /// ``plainText(options:)`` handed to `write` a piece at a time as it is written.
    public func plainText(options: RenderOptions = RenderOptions(), into write: (String) -> Void) {
        var writer = PlainTextWriter(options: options, indent: "")
        if let title = options.title { writer.line("# \(title)") }
        writer.walk(self, into: write)
        writer.handOn(to: write)
    }
}

/// Writes the plain-text rendering.
struct PlainTextWriter: TranscriptWriter {
    let options: RenderOptions
    let indent: String
    var output = ""

    mutating func line(_ text: String) {
        output += indent + text + "\n"
    }

    /// Writes `text` indented, each line prefixed with `prefix`.
    mutating func block(_ text: String, prefix: String) {
        for part in text.split(separator: "\n", omittingEmptySubsequences: false) { line(prefix + part) }
    }

    mutating func userTurn(_ turn: UserTurn) {
        line("")
        line(TextFolding.bracketedTime(turn.timestamp) + Self.label(of: turn.kind))
        let limit = turn.kind == .prompt ? nil : options.toolResultLineLimit
        let folded = TextFolding.fold(turn.text, limit: limit)
        block(folded.text, prefix: "  ")
        if folded.hiddenLines > 0 { line("  … \(folded.hiddenLines) more lines") }
        for item in turn.content where item.text == nil { line("  [\(Self.describe(item))]") }
    }

    mutating func assistantHeader(_ turn: AssistantTurn) {
        line("")
        line(TextFolding.bracketedTime(turn.timestamp) + "Claude" + (turn.model.map { " (\($0))" } ?? ""))
    }

    mutating func text(_ text: String) {
        block(text, prefix: "  ")
    }

    mutating func thinking(_ text: String) {
        let folded = TextFolding.fold(text, limit: options.toolResultLineLimit)
        block(folded.text, prefix: "  ∴ ")
    }

    mutating func toolCall(_ call: ToolUseBlock, outcome: ToolOutcome?, subagent: Subagent?) {
        let result = outcome.map { " → " + ToolCallSummary.outcome($0) } ?? " → (no result)"
        line("  ▸ " + ToolCallSummary.oneLine(call) + result)
        guard options.includeToolResults, let outcome, !outcome.result.text.isEmpty else { return }
        let folded = TextFolding.fold(outcome.result.text, limit: options.toolResultLineLimit)
        block(folded.text, prefix: "    │ ")
        if folded.hiddenLines > 0 { line("    … \(folded.hiddenLines) more lines") }
    }

    mutating func placeholder(_ description: String) {
        line("  [\(description)]")
    }

    mutating func compaction(_ marker: CompactionMarker) {
        line("")
        line("── \(Self.describe(marker)) ──")
    }

    mutating func subagentTranscript(_ subagent: Subagent) {
        line("    ↳ subagent \(subagent.id): \(subagent.conversation.messageCount) messages")
        var nested = PlainTextWriter(options: options, indent: indent + "    ")
        nested.walk(subagent.conversation)
        output += nested.output
    }
}
