/// Everything the decoder may find at the top level of a line, gathered in one pass before the
/// record's `type` decides which of it becomes the payload (`type` need not come first).
struct RecordFields {
    var type: String?
    var envelope = Envelope()
    var message = MessageFields()
    var subtype: String?
    var contentText: String?
    var level: String?
    var compaction: CompactionInfo?
    var durationMs: Int?
    var summary: String?
    var leafUuid: String?
    var metadataValues: [MetadataKind: String] = [:]
    var operation: String?
    var messageId: String?
    var isSnapshotUpdate = false
    var snapshot: RawJSON?
    var data: RawJSON?
    var dataType: String?
    var dataAgentId: String?
    var attachment: RawJSON?
    var attachmentType: String?
    var toolUseId: String?
    var parentToolUseId: String?
    var toolUseResult: RawJSON?
    var resultAgentId: String?
    var requestId: String?
    var isApiErrorMessage = false
    var isCompactSummary = false
    var isVisibleInTranscriptOnly = false
    var originKind: String?
    var totalCostUSD: Double?
}

/// The parts of `message` the records use.
struct MessageFields {
    var id: String?
    var model: String?
    var content: [ContentBlock] = []
    var contentIsString = false
    var stopReason: String?
    var usage: TokenUsage?
}

/// The parts of a content block, before its `type` picks the case.
struct BlockFields {
    var type: String?
    var text: String?
    var thinking: String?
    var isSigned = false
    var data: RawJSON?
    var id: String?
    var name: String?
    var input: RawJSON?
    var toolUseId: String?
    var content: [ContentBlock] = []
    var isError = false
    var source: MediaBlock?
}
