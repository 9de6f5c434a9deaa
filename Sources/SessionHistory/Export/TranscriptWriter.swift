/// The walk shared by the text and Markdown renderings: each writer says how an item looks,
/// the walk decides what is shown and in which order.
protocol TranscriptWriter {
    var options: RenderOptions { get }
    /// What is written and not yet handed on.
    var output: String { get set }
    mutating func userTurn(_ turn: UserTurn)
    mutating func assistantHeader(_ turn: AssistantTurn)
    mutating func text(_ text: String)
    mutating func thinking(_ text: String)
    mutating func toolCall(_ call: ToolUseBlock, outcome: ToolOutcome?, subagent: Subagent?)
    mutating func placeholder(_ description: String)
    mutating func compaction(_ marker: CompactionMarker)
    mutating func subagentTranscript(_ subagent: Subagent)
}

extension TranscriptWriter {
    /// Writes every entry of `conversation` (and, if asked, its unlinked subagents at the end)
    /// into ``output``.
    mutating func walk(_ conversation: Conversation) {
        walk(conversation, handingOnAt: .max) { _ in }
    }

    /// Writes as ``walk(_:)`` does, handing `write` the output each time it passes 64 KiB:
    /// nothing waits for the end. What is left at the end stays in ``output``.
    mutating func walk(_ conversation: Conversation, into write: (String) -> Void) {
        walk(conversation, handingOnAt: 1 << 16, into: write)
    }

    private mutating func walk(_ conversation: Conversation, handingOnAt limit: Int, into write: (String) -> Void) {
        var shownSubagents = Set<String>()
        for entry in conversation.entries {
            if output.utf8.count >= limit { handOn(to: write) }
            switch entry {
            case .user(let turn):
                userTurn(turn)
            case .assistant(let turn):
                assistantHeader(turn)
                for block in turn.content {
                    let subagent = block.toolUse.flatMap { conversation.subagent(forToolUse: $0.id) }
                    if let subagent { shownSubagents.insert(subagent.id) }
                    writeBlock(block, turn: turn, subagent: subagent)
                }
            case .compaction(let marker):
                compaction(marker)
            }
        }
        guard options.includeSubagents else { return }
        for subagent in conversation.subagents where !shownSubagents.contains(subagent.id) {
            subagentTranscript(subagent)
        }
    }

    /// Gives `write` the output so far (neutralised as ``RenderOptions`` asks) and starts anew.
    mutating func handOn(to write: (String) -> Void) {
        guard !output.isEmpty else { return }
        write(options.finish(output))
        output = ""
    }

    /// Writes one content block of an assistant turn.
    mutating func writeBlock(_ block: ContentBlock, turn: AssistantTurn, subagent: Subagent?) {
        switch block {
        case .text(let value):
            text(value)
        case .thinking(let value):
            if options.includeThinking { thinking(value.thinking) }
        case .redactedThinking:
            if options.includeThinking { placeholder("redacted thinking") }
        case .toolUse(let call):
            toolCall(call, outcome: turn.toolResults[call.id], subagent: subagent)
            if let subagent, options.includeSubagents { subagentTranscript(subagent) }
        default:
            placeholder(Self.describe(block))
        }
    }

    /// `image (image/png, 12 KB)`, `document (application/pdf, …)`, `tool_reference`, ….
    static func describe(_ block: ContentBlock) -> String {
        switch block {
        case .image(let media): return "image (\(mediaDescription(media)))"
        case .document(let media): return "document (\(mediaDescription(media)))"
        case .unknown(let unknown): return unknown.type ?? "unknown block"
        case .toolResult(let result): return "tool result for \(result.toolUseId)"
        default: return "block"
        }
    }

    private static func mediaDescription(_ media: MediaBlock) -> String {
        let size = media.approximateByteCount
        let sizeText = size >= 1024 ? "\(size / 1024) KB" : "\(size) B"
        return [media.mediaType ?? media.sourceType ?? "unknown type", media.data == nil ? media.url : sizeText]
            .compactMap { $0 }.joined(separator: ", ")
    }

    /// The label of a user turn: `You`, `Command /init`, `Command output`, ….
    static func label(of kind: UserTurnKind) -> String {
        switch kind {
        case .prompt: return "You"
        case .command(let name): return "Command \(name)"
        case .commandOutput: return "Command output"
        case .interruption: return "Interrupted"
        case .compactSummary: return "Compact summary"
        }
    }

    /// `conversation compacted (auto, 167094 tokens before)`.
    static func describe(_ marker: CompactionMarker) -> String {
        let details = [marker.trigger, marker.preTokens.map { "\($0) tokens before" }].compactMap { $0 }
        let name = marker.isMicro ? "old tool results cleared" : "conversation compacted"
        return details.isEmpty ? name : "\(name) (\(details.joined(separator: ", ")))"
    }
}
