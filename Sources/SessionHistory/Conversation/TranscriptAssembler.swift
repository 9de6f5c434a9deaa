import Foundation

/// Turns a chain of records into displayed entries: hides meta/sidechain/team records, merges
/// the streamed chunks of one response by `message.id`, and attaches each tool result to the
/// response that made the call.
struct TranscriptAssembler {
    /// Whether sidechain records are this transcript's own (subagent files, inline sidechains).
    let isSidechainTranscript: Bool
    private(set) var entries: [ConversationEntry] = []
    private var entryByMessageId: [String: Int] = [:]
    private var entryByToolUseId: [String: Int] = [:]

    init(isSidechainTranscript: Bool) {
        self.isSidechainTranscript = isSidechainTranscript
    }

    /// Goes on from `entries` built already (a loaded conversation): the next chunk of their last
    /// response merges into it, and a tool result finds the call it answers.
    init(isSidechainTranscript: Bool, continuing entries: [ConversationEntry]) {
        self.isSidechainTranscript = isSidechainTranscript
        self.entries = entries
        for (index, entry) in entries.enumerated() {
            guard case .assistant(let turn) = entry else { continue }
            if let id = turn.messageId { entryByMessageId[id] = index }
            for block in turn.content {
                if let use = block.toolUse { entryByToolUseId[use.id] = index }
            }
        }
    }

    /// Adds one record of the chain (in order); returns the index of the entry it created or changed.
    @discardableResult
    mutating func add(_ record: SessionRecord) -> Int? {
        switch record.kind {
        case .user(let user) where isVisible(record):
            return addUser(user, record: record)
        case .assistant(let assistant) where isVisible(record):
            return addAssistant(assistant, record: record)
        case .system(let system):
            return addBoundary(system, record: record)
        default:
            return nil
        }
    }

    private func isVisible(_ record: SessionRecord) -> Bool {
        let envelope = record.envelope
        return !envelope.isMeta && envelope.teamName == nil && (isSidechainTranscript || !envelope.isSidechain)
    }

    private mutating func addUser(_ user: UserRecord, record: SessionRecord) -> Int? {
        var touched: Int?
        var rest: [ContentBlock] = []
        for block in user.content {
            guard let result = block.toolResult, let owner = entryByToolUseId[result.toolUseId],
                case .assistant(var turn) = entries[owner]
            else {
                rest.append(block)
                continue
            }
            turn.toolResults[result.toolUseId] = ToolOutcome(
                result: result, structured: user.toolUseResult, timestamp: record.envelope.timestamp, recordUuid: record.envelope.uuid)
            entries[owner] = .assistant(turn)
            touched = owner
        }
        guard !rest.isEmpty else { return touched }
        let kind = UserTurnClassifier.kind(of: user, content: rest)
        entries.append(
            .user(
                UserTurn(
                    uuid: record.envelope.uuid, timestamp: record.envelope.timestamp, kind: kind, content: rest,
                    permissionMode: user.permissionMode)))
        return entries.count - 1
    }

    private mutating func addAssistant(_ assistant: AssistantRecord, record: SessionRecord) -> Int {
        let index: Int
        if let id = assistant.messageId, let existing = entryByMessageId[id], case .assistant(var turn) = entries[existing] {
            turn.content += assistant.content
            turn.recordUuids += record.envelope.uuid.map { [$0] } ?? []
            turn.usage = merge(turn.usage, assistant.usage)
            turn.model = turn.model ?? assistant.model
            entries[existing] = .assistant(turn)
            index = existing
        } else {
            let turn = AssistantTurn(
                messageId: assistant.messageId, model: assistant.model, timestamp: record.envelope.timestamp,
                recordUuids: record.envelope.uuid.map { [$0] } ?? [], content: assistant.content,
                usage: assistant.usage, isSynthetic: assistant.isSynthetic
            )
            entries.append(.assistant(turn))
            index = entries.count - 1
            if let id = assistant.messageId { entryByMessageId[id] = index }
        }
        for block in assistant.content {
            if let use = block.toolUse { entryByToolUseId[use.id] = index }
        }
        return index
    }

    private func merge(_ lhs: TokenUsage?, _ rhs: TokenUsage?) -> TokenUsage? {
        guard let lhs, let rhs else { return lhs ?? rhs }
        return lhs.fieldwiseMaximum(rhs)
    }

    private mutating func addBoundary(_ system: SystemRecord, record: SessionRecord) -> Int? {
        guard system.subtype == .compactBoundary || system.subtype == .microcompactBoundary else { return nil }
        let marker = CompactionMarker(
            uuid: record.envelope.uuid, timestamp: record.envelope.timestamp, trigger: system.compaction?.trigger,
            preTokens: system.compaction?.preTokens, isMicro: system.subtype == .microcompactBoundary
        )
        entries.append(.compaction(marker))
        return entries.count - 1
    }
}

/// Recognises the wrappers Claude Code puts around non-prompt user text.
enum UserTurnClassifier {
    static func kind(of user: UserRecord, content: [ContentBlock]) -> UserTurnKind {
        if user.isCompactSummary { return .compactSummary }
        let text = content.compactMap(\.text).joined(separator: "\n").trimmingLeadingWhitespace()
        if let name = commandName(in: text) { return .command(name) }
        let outputs = ["<local-command-stdout>", "<local-command-stderr>", "<bash-stdout>", "<bash-stderr>", "<bash-input>"]
        if outputs.contains(where: text.hasPrefix) { return .commandOutput }
        if text.hasPrefix("[Request interrupted by user") { return .interruption }
        return .prompt
    }

    /// `X` of the first `<command-name>X</command-name>` in `text`.
    static func commandName(in text: String) -> String? {
        guard let open = text.range(of: "<command-name>"),
            let close = text.range(of: "</command-name>", range: open.upperBound..<text.endIndex)
        else { return nil }
        return String(text[open.upperBound..<close.lowerBound])
    }
}

extension String {
    /// The string without leading spaces, tabs and newlines.
    func trimmingLeadingWhitespace() -> String {
        String(drop { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
    }
}
