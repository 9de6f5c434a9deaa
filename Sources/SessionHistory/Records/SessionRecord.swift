/// One line of a session file, decoded.
public struct SessionRecord: Sendable, Equatable {
    /// The record's `type` string as written (`nil` when the line had none).
    public var type: String?
    /// The shared fields (ids, time, cwd, branch, flags).
    public var envelope: Envelope
    /// The type-specific content.
    public var kind: RecordKind
    /// Where the line is in its source.
    public var location: LineLocation
    /// The whole line as written, for anything not modelled.
    public var raw: RawJSON

    /// Creates a record.
    public init(type: String?, envelope: Envelope, kind: RecordKind, location: LineLocation, raw: RawJSON) {
        self.type = type
        self.envelope = envelope
        self.kind = kind
        self.location = location
        self.raw = raw
    }

    /// The user payload, for `user` records.
    public var user: UserRecord? {
        if case .user(let record) = kind { return record }
        return nil
    }

    /// The assistant payload, for `assistant` records.
    public var assistant: AssistantRecord? {
        if case .assistant(let record) = kind { return record }
        return nil
    }

    /// The system payload, for `system` records.
    public var system: SystemRecord? {
        if case .system(let record) = kind { return record }
        return nil
    }

    /// Whether rws does not know this record's `type` (neither decoded nor known and kept raw
    /// on purpose, ``RecordTypeCensus``); a line without a `type` counts as unknown.
    public var isOfUnknownType: Bool {
        kind == .unknown && !SessionRecordTypes.isKnown(type ?? "")
    }

    /// Whether this record type takes part in the `parentUuid` tree.
    public var isTranscriptEntry: Bool {
        switch kind {
        case .user, .assistant, .system, .progress, .attachment: return envelope.uuid != nil
        default: return false
        }
    }
}

/// Where a line sits in the bytes it was read from.
public struct LineLocation: Sendable, Equatable, Hashable {
    /// 1-based line number (counted from the first byte given to the reader).
    public var line: Int
    /// Byte offset of the line's first byte (counted the same way).
    public var byteOffset: Int

    /// Creates a location.
    public init(line: Int, byteOffset: Int) {
        self.line = line
        self.byteOffset = byteOffset
    }
}

/// The type-specific part of a record. Unknown `type`s are kept as ``unknown`` with the raw line.
public enum RecordKind: Sendable, Equatable {
    /// `user`: prompts, tool results, injected text, compact summaries.
    case user(UserRecord)
    /// `assistant`: one content block of a model response.
    case assistant(AssistantRecord)
    /// `system`: hooks, compaction boundaries, local commands, stats.
    case system(SystemRecord)
    /// `progress`: hook / bash / agent progress.
    case progress(ProgressRecord)
    /// `attachment`: out-of-band context.
    case attachment(AttachmentRecord)
    /// `summary`: a legacy conversation title keyed by leaf uuid.
    case summary(SummaryRecord)
    /// `file-history-snapshot`: a checkpoint for /rewind.
    case fileHistorySnapshot(FileHistorySnapshotRecord)
    /// `queue-operation`: prompts queued while the agent was busy.
    case queueOperation(QueueOperationRecord)
    /// Title and mode records (`custom-title`, `ai-title`, `last-prompt`, `tag`, …).
    case metadata(MetadataRecord)
    /// `cost-state` (2.1.x): the cost so far, written after each turn.
    case costState(CostStateRecord)
    /// Any other type (see ``SessionRecord/raw``), including the ones
    /// `SessionRecordTypes.ignored` lists as known and not needed.
    case unknown
}
