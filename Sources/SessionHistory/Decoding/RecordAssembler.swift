/// Turns the fields gathered from a line into the typed record its `type` calls for.
enum RecordAssembler {
    static func record(from fields: RecordFields, location: LineLocation, raw: RawJSON) -> SessionRecord {
        SessionRecord(type: fields.type, envelope: fields.envelope, kind: kind(from: fields), location: location, raw: raw)
    }

    private static func kind(from fields: RecordFields) -> RecordKind {
        switch fields.type {
        case "user":
            return .user(
                UserRecord(
                    content: fields.message.content, contentIsString: fields.message.contentIsString,
                    isCompactSummary: fields.isCompactSummary, isVisibleInTranscriptOnly: fields.isVisibleInTranscriptOnly,
                    toolUseResult: fields.toolUseResult, resultAgentId: fields.resultAgentId, originKind: fields.originKind,
                    permissionMode: fields.metadataValues[.permissionMode]
                ))
        case "assistant":
            let message = fields.message
            return .assistant(
                AssistantRecord(
                    messageId: message.id, requestId: fields.requestId, model: message.model, content: message.content,
                    stopReason: message.stopReason, usage: message.usage, isApiErrorMessage: fields.isApiErrorMessage
                ))
        case "system":
            return .system(
                SystemRecord(
                    subtype: SystemSubtype(fields.subtype), content: fields.contentText, level: fields.level,
                    compaction: fields.compaction, durationMs: fields.durationMs
                ))
        case "progress":
            return .progress(
                ProgressRecord(
                    dataType: fields.dataType, agentId: fields.dataAgentId, toolUseId: fields.toolUseId,
                    parentToolUseId: fields.parentToolUseId, data: fields.data
                ))
        case "attachment":
            return .attachment(AttachmentRecord(attachmentType: fields.attachmentType, attachment: fields.attachment))
        default:
            return metadataKind(from: fields)
        }
    }

    private static func metadataKind(from fields: RecordFields) -> RecordKind {
        switch fields.type {
        case "summary":
            guard let summary = fields.summary else { return .unknown }
            return .summary(SummaryRecord(summary: summary, leafUuid: fields.leafUuid))
        case "file-history-snapshot":
            return .fileHistorySnapshot(
                FileHistorySnapshotRecord(
                    messageId: fields.messageId, isSnapshotUpdate: fields.isSnapshotUpdate, snapshot: fields.snapshot
                ))
        case "queue-operation":
            return .queueOperation(QueueOperationRecord(operation: fields.operation, content: fields.contentText))
        case "cost-state":
            return .costState(CostStateRecord(totalCostUSD: fields.totalCostUSD))
        case .some(let type):
            guard let kind = MetadataKind(rawValue: type) else { return .unknown }
            return .metadata(MetadataRecord(kind: kind, value: fields.metadataValues[kind], leafUuid: fields.leafUuid))
        case nil:
            return .unknown
        }
    }
}

/// Turns the fields gathered from a content block into its case.
enum BlockAssembler {
    static func block(from fields: BlockFields, raw: RawJSON) -> ContentBlock {
        switch fields.type {
        case "text":
            if let text = fields.text { return .text(text) }
        case "thinking":
            if let thinking = fields.thinking { return .thinking(ThinkingBlock(thinking: thinking, isSigned: fields.isSigned)) }
        case "redacted_thinking":
            return .redactedThinking(RedactedThinkingBlock(data: fields.data))
        case "tool_use":
            if let id = fields.id, let name = fields.name {
                return .toolUse(ToolUseBlock(id: id, name: name, input: fields.input ?? RawJSON("{}")))
            }
        case "tool_result":
            if let toolUseId = fields.toolUseId {
                return .toolResult(ToolResultBlock(toolUseId: toolUseId, content: fields.content, isError: fields.isError))
            }
        case "image":
            if let source = fields.source { return .image(source) }
        case "document":
            if let source = fields.source { return .document(source) }
        default:
            break
        }
        return .unknown(UnknownBlock(type: fields.type, raw: raw))
    }
}
