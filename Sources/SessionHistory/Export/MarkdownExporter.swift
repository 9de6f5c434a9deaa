extension Conversation {
    /// The conversation as Markdown: prompts and answers as sections, tool calls with their
    /// input and (trimmed, optional) result, thinking optional, images as placeholders,
    /// compaction markers as rules.
    public func markdown(options: RenderOptions = RenderOptions()) -> String {
        var text = ""
        markdown(options: options) { text += $0 }
        return text
    }

    /// ``markdown(options:)`` handed to `write` a piece at a time as it is written.
    public func markdown(options: RenderOptions = RenderOptions(), into write: (String) -> Void) {
        var writer = MarkdownWriter(options: options, level: 2)
        writer.output += "# \(options.title ?? sessionId.map { "Session \($0)" } ?? "Conversation")\n\n"
        writer.output += MarkdownWriter.usageLine(usage)
        writer.walk(self, into: write)
        writer.handOn(to: write)
    }
}

/// Writes the Markdown rendering.
struct MarkdownWriter: TranscriptWriter {
    let options: RenderOptions
    /// Heading level of messages (subagents are nested one level deeper).
    let level: Int
    var output = ""

    private var heading: String { String(repeating: "#", count: min(level, 6)) }

    static func usageLine(_ usage: UsageReport) -> String {
        let total = usage.total
        return "_\(usage.responseCount) responses; tokens: \(total.inputTokens) in, \(total.outputTokens) out, "
            + "\(total.cacheCreationInputTokens) cache write, \(total.cacheReadInputTokens) cache read_\n\n"
    }

    mutating func userTurn(_ turn: UserTurn) {
        output += "\(heading) \(Self.label(of: turn.kind))\(TextFolding.dottedTime(turn.timestamp))\n\n"
        switch turn.kind {
        case .prompt, .interruption, .command:
            output += MarkdownHeadings.demote(turn.text, below: level) + "\n\n"
        case .commandOutput, .compactSummary:
            fenced(TextFolding.fold(turn.text, limit: options.toolResultLineLimit), language: "")
        }
        for item in turn.content where item.text == nil { placeholder(Self.describe(item)) }
    }

    mutating func assistantHeader(_ turn: AssistantTurn) {
        let model = turn.model.map { " (\($0))" } ?? ""
        output += "\(heading) Claude\(model)\(TextFolding.dottedTime(turn.timestamp))\n\n"
    }

    mutating func text(_ text: String) {
        output += MarkdownHeadings.demote(text, below: level)
        output += "\n\n"
    }

    mutating func thinking(_ text: String) {
        output += "<details><summary>Thinking</summary>\n\n"
        output += text
        output += "\n\n</details>\n\n"
    }

    mutating func toolCall(_ call: ToolUseBlock, outcome: ToolOutcome?, subagent: Subagent?) {
        output += "**Tool call:** `\(ToolCallSummary.oneLine(call).replacingBackticks)`\n\n"
        let input = call.input.value.map { JSONWriter.string(from: $0, pretty: true) } ?? call.input.text
        fenced((input, 0), language: "json")
        guard let outcome else { return }
        let status = outcome.result.isError ? "**Error:**" : "**Result:** \(ToolCallSummary.outcome(outcome))"
        output += status + "\n\n"
        if options.includeToolResults, !outcome.result.text.isEmpty {
            fenced(TextFolding.fold(outcome.result.text, limit: options.toolResultLineLimit), language: "")
        }
    }

    mutating func placeholder(_ description: String) {
        output += "_[\(description)]_\n\n"
    }

    mutating func compaction(_ marker: CompactionMarker) {
        output += "---\n\n> **\(Self.describe(marker))**\(TextFolding.dottedTime(marker.timestamp))\n\n---\n\n"
    }

    mutating func subagentTranscript(_ subagent: Subagent) {
        let what = subagent.metadata?.description.map { ": \($0)" } ?? ""
        output += "<details><summary>Subagent \(subagent.id)\(what) (\(subagent.conversation.messageCount) messages)</summary>\n\n"
        var nested = MarkdownWriter(options: options, level: level + 1)
        nested.walk(subagent.conversation)
        output += nested.output + "</details>\n\n"
    }

    /// A code fence long enough not to be closed by backticks inside `text`.
    private mutating func fenced(_ folded: (text: String, hiddenLines: Int), language: String) {
        var longest = 0
        var run = 0
        for byte in folded.text.utf8 {
            run = byte == UInt8(ascii: "`") ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        // Appended piece by piece: a concatenation would copy the text once more.
        output += fence
        output += language
        output += "\n"
        output += folded.text
        output += "\n"
        output += fence
        output += "\n\n"
        if folded.hiddenLines > 0 { output += "_… \(folded.hiddenLines) more lines_\n\n" }
    }
}

extension String {
    /// Backticks replaced by `'`, for inline code spans.
    var replacingBackticks: String {
        guard utf8.contains(UInt8(ascii: "`")) else { return self }
        return String(decoding: utf8.map { $0 == UInt8(ascii: "`") ? UInt8(ascii: "'") : $0 }, as: UTF8.self)
    }
}
