/// Builds the displayed ``Conversation`` of a session from its records.
public enum ConversationBuilder {
    /// The conversation of a main session file, with its subagents linked.
    ///
    /// - Parameters:
    ///   - records: the session file's records, in file order.
    ///   - subagentFiles: transcripts of subagent files belonging to it (`agent-*.jsonl`).
    ///     Inline sidechains (CLI ≤ 1.0.x) are found in `records` themselves.
    ///   - options: how to treat compaction.
    public static func build(
        records: [SessionRecord], subagentFiles: [SubagentSource] = [], options: ConversationOptions = ConversationOptions()
    ) -> Conversation {
        var conversation = transcript(records: records, isSidechainTranscript: false, options: options)
        var linker = SubagentLinker(mainRecords: records)
        var subagents: [Subagent] = []
        for (number, group) in SubagentLinker.inlineSidechainGroups(in: records).enumerated() {
            let agent = transcript(records: group, isSidechainTranscript: true, options: options)
            let toolUseId = linker.linkInline(firstPrompt: firstPromptText(of: agent))
            subagents.append(Subagent(id: "inline-\(number + 1)", source: .inline, toolUseId: toolUseId, conversation: agent))
        }
        for file in subagentFiles {
            var agent = transcript(records: file.records, isSidechainTranscript: true, options: options)
            agent.agentId = file.agentId
            let toolUseId = linker.linkFile(file, firstPrompt: firstPromptText(of: agent))
            subagents.append(
                Subagent(
                    id: file.agentId, source: .file(name: file.fileName), toolUseId: toolUseId, metadata: file.metadata, conversation: agent
                ))
        }
        conversation.subagents = subagents
        return conversation
    }

    /// The conversation of one transcript on its own (no subagent linking).
    ///
    /// - Parameters:
    ///   - records: The transcript's records in file order.
    ///   - isSidechainTranscript: `true` for a subagent file, whose records are all
    ///     sidechain records and must not be hidden.
    ///   - options: How to build the conversation.
    public static func transcript(
        records: [SessionRecord], isSidechainTranscript: Bool, options: ConversationOptions = ConversationOptions()
    ) -> Conversation {
        // The resume view relinks messages a compaction kept verbatim after its summary.
        let preserved = options.includePreCompactionHistory ? PreservedSegments() : PreservedSegments(records: records)
        let linked = preserved.relinked(records)
        let (chain, otherLeafCount, leaf) = ChainResolver(records: linked).resolve(followCompaction: options.includePreCompactionHistory)
        var assembler = TranscriptAssembler(isSidechainTranscript: isSidechainTranscript)
        for index in preserved.ordered(Set(chain)) { assembler.add(records[index]) }
        let first = records.first { $0.envelope.sessionId != nil }?.envelope
        var conversation = Conversation(
            sessionId: first?.sessionId, agentId: isSidechainTranscript ? first?.agentId : nil,
            entries: assembler.entries, usage: UsageReport(records: records),
            leafUuid: leaf.flatMap { records[$0].envelope.uuid }, otherLeafCount: otherLeafCount
        )
        conversation.unknownRecords = records.filter(\.isOfUnknownType).map(\.raw)
        return conversation
    }

    private static func firstPromptText(of conversation: Conversation) -> String? {
        for entry in conversation.entries {
            if case .user(let turn) = entry { return turn.text }
        }
        return nil
    }
}
