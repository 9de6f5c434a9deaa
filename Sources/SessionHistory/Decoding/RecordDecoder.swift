/// Decodes one line into ``RecordFields`` in a single pass over its bytes.
///
/// Known keys are decoded as they come; everything else is skipped (validated, not copied).
/// Open-ended values (tool inputs, `toolUseResult`, `data`, `snapshot`) are kept as ``RawJSON``
/// slices of the owner buffer. A value of an unexpected type reads as absent, never as an error.
struct RecordDecoder {
    var scanner: JSONScanner
    let owner: [UInt8]
    let pool: StringPool

    init(owner: [UInt8], base: UnsafePointer<UInt8>, range: Range<Int>, pool: StringPool) {
        self.owner = owner
        self.scanner = JSONScanner(base: base, range: range)
        self.pool = pool
    }

    /// A string value that other records repeat (ids, paths), drawn from the pool; anything
    /// else is skipped and gives `nil`.
    mutating func readSharedString(_ slot: StringPool.Slot) throws(JSONError) -> String? {
        guard scanner.peek() == 0x22 else {
            try scanner.skipValue()
            return nil
        }
        return try pool.string(try scanner.scanString(), of: scanner, slot: slot)
    }

    /// Decodes the line's object into `fields`; on a throw, `fields` keeps what was read so far.
    mutating func decode(into fields: inout RecordFields) throws(JSONError) {
        guard scanner.atObject() else { throw scanner.byteError() }
        try scanner.enter(0x7B)
        var cursor = ContainerCursor()
        while let key = try scanner.nextKey(&cursor) {
            if try decodeEnvelopeMember(key, into: &fields.envelope) { continue }
            if try decodePayloadMember(key, into: &fields) { continue }
            if try decodeLinkMember(key, into: &fields) { continue }
            if try decodeMetadataMember(key, into: &fields) { continue }
            try scanner.skipValue()
        }
        try scanner.expectEnd()
    }

    func raw(_ range: Range<Int>) -> RawJSON { RawJSON(bytes: owner[range]) }

    private mutating func decodeEnvelopeMember(_ key: StringToken, into envelope: inout Envelope) throws(JSONError) -> Bool {
        if scanner.matches(key, "uuid") {
            envelope.uuid = try readSharedString(.record)
        } else if scanner.matches(key, "parentUuid") {
            envelope.parentUuid = try readSharedString(.record)
        } else if scanner.matches(key, "timestamp") {
            envelope.timestamp = try scanner.readString()
        } else if scanner.matches(key, "sessionId") {
            envelope.sessionId = try readSharedString(.session)
        } else if scanner.matches(key, "isSidechain") {
            envelope.isSidechain = try scanner.readBool() ?? false
        } else if scanner.matches(key, "cwd") {
            envelope.cwd = try readSharedString(.path)
        } else if scanner.matches(key, "version") {
            envelope.version = try readSharedString(.version)
        } else if scanner.matches(key, "gitBranch") {
            envelope.gitBranch = try readSharedString(.branch)
        } else if scanner.matches(key, "isMeta") {
            envelope.isMeta = try scanner.readBool() ?? false
        } else if scanner.matches(key, "logicalParentUuid") {
            envelope.logicalParentUuid = try readSharedString(.record)
        } else if scanner.matches(key, "agentId") {
            envelope.agentId = try readSharedString(.agent)
        } else if scanner.matches(key, "slug") {
            envelope.slug = try readSharedString(.slug)
        } else if scanner.matches(key, "entrypoint") {
            envelope.entrypoint = try readSharedString(.entrypoint)
        } else if scanner.matches(key, "teamName") {
            envelope.teamName = try readSharedString(.team)
        } else {
            return false
        }
        return true
    }

    private mutating func decodePayloadMember(_ key: StringToken, into fields: inout RecordFields) throws(JSONError) -> Bool {
        if scanner.matches(key, "type") {
            fields.type = try scanner.readString()
        } else if scanner.matches(key, "message") {
            try decodeMessage(into: &fields.message)
        } else if scanner.matches(key, "requestId") {
            fields.requestId = try readSharedString(.request)
        } else if scanner.matches(key, "subtype") {
            fields.subtype = try scanner.readString()
        } else if scanner.matches(key, "content") {
            fields.contentText = try readTextOrBlocks()
        } else if scanner.matches(key, "level") {
            fields.level = try scanner.readString()
        } else if scanner.matches(key, "compactMetadata") || scanner.matches(key, "microcompactMetadata") {
            fields.compaction = try decodeCompaction()
        } else if scanner.matches(key, "durationMs") {
            fields.durationMs = try scanner.readInt()
        } else if scanner.matches(key, "isApiErrorMessage") {
            fields.isApiErrorMessage = try scanner.readBool() ?? false
        } else if scanner.matches(key, "isCompactSummary") {
            fields.isCompactSummary = try scanner.readBool() ?? false
        } else if scanner.matches(key, "isVisibleInTranscriptOnly") {
            fields.isVisibleInTranscriptOnly = try scanner.readBool() ?? false
        } else if scanner.matches(key, "operation") {
            fields.operation = try scanner.readString()
        } else {
            return false
        }
        return true
    }

    /// Keys that link records to each other or to tools.
    private mutating func decodeLinkMember(_ key: StringToken, into fields: inout RecordFields) throws(JSONError) -> Bool {
        if scanner.matches(key, "toolUseResult") {
            (fields.toolUseResult, fields.resultAgentId) = try captureObject(reading: "agentId")
        } else if scanner.matches(key, "data") {
            (fields.data, fields.dataType, fields.dataAgentId) = try captureTypedObject(reading: "agentId")
        } else if scanner.matches(key, "attachment") {
            (fields.attachment, fields.attachmentType) = try captureObject(reading: "type")
        } else if scanner.matches(key, "toolUseID") {
            fields.toolUseId = try readSharedString(.tool)
        } else if scanner.matches(key, "parentToolUseID") {
            fields.parentToolUseId = try readSharedString(.parentTool)
        } else if scanner.matches(key, "snapshot") {
            fields.snapshot = raw(try scanner.captureValue())
        } else if scanner.matches(key, "messageId") {
            fields.messageId = try scanner.readString()
        } else if scanner.matches(key, "isSnapshotUpdate") {
            fields.isSnapshotUpdate = try scanner.readBool() ?? false
        } else if scanner.matches(key, "origin") {
            (_, fields.originKind) = try captureObject(reading: "kind")
        } else {
            return false
        }
        return true
    }

    private mutating func decodeMetadataMember(_ key: StringToken, into fields: inout RecordFields) throws(JSONError) -> Bool {
        if scanner.matches(key, "summary") {
            fields.summary = try scanner.readString()
        } else if scanner.matches(key, "leafUuid") {
            fields.leafUuid = try scanner.readString()
        } else if scanner.matches(key, "customTitle") {
            fields.metadataValues[.customTitle] = try scanner.readString()
        } else if scanner.matches(key, "aiTitle") {
            fields.metadataValues[.aiTitle] = try scanner.readString()
        } else if scanner.matches(key, "lastPrompt") {
            fields.metadataValues[.lastPrompt] = try scanner.readString()
        } else if scanner.matches(key, "tag") {
            fields.metadataValues[.tag] = try scanner.readString()
        } else if scanner.matches(key, "permissionMode") {
            fields.metadataValues[.permissionMode] = try scanner.readString()
        } else if scanner.matches(key, "agentName") {
            fields.metadataValues[.agentName] = try scanner.readString()
        } else if scanner.matches(key, "mode") {
            fields.metadataValues[.mode] = try scanner.readString()
        } else if scanner.matches(key, "continuedInSessionId") {
            fields.metadataValues[.continuedIn] = try scanner.readString()
        } else if scanner.matches(key, "provider") {
            fields.metadataValues[.apiRequestRoute] = try scanner.readString()
        } else if scanner.matches(key, "totalCostUSD") {
            fields.totalCostUSD = try scanner.readDouble()
        } else {
            return false
        }
        return true
    }
}
