/// What decoded records keep of the bytes they were read from.
public enum SourceRetention: Sendable, Equatable {
    /// Every record keeps its line (``SessionRecord/raw``) and its open-ended values
    /// (`toolUseResult`, progress `data`, attachments, snapshots, tool inputs) as slices of the
    /// bytes read: nothing is copied, and those bytes stay in memory while any record does.
    case whole
    /// Records keep what a conversation and its renderings (text, Markdown, JSON) use, in
    /// storage of their own: tool inputs, media, unknown blocks and records of unknown types
    /// are copied; the line of any other record (``SessionRecord/raw`` is empty), `toolUseResult` (``ToolOutcome/structured`` is `nil`),
    /// progress `data`, attachments and snapshots are dropped. A file read this way is decoded a
    /// chunk at a time and never held whole, so memory follows what is shown, not the file's size.
    case conversation
}

extension SessionRecord {
    /// This record as ``SourceRetention/conversation`` keeps it: no slice of the bytes it was read from.
    package func keepingConversation() -> SessionRecord {
        var record = self
        record.raw = RawJSON(bytes: [])
        switch kind {
        case .user(var user):
            user.toolUseResult = nil
            user.content = user.content.map(\.owningItsBytes)
            record.kind = .user(user)
        case .assistant(var assistant):
            assistant.content = assistant.content.map(\.owningItsBytes)
            record.kind = .assistant(assistant)
        case .progress(var progress):
            progress.data = nil
            record.kind = .progress(progress)
        case .attachment(var attachment):
            attachment.attachment = nil
            record.kind = .attachment(attachment)
        case .fileHistorySnapshot(var snapshot):
            snapshot.snapshot = nil
            record.kind = .fileHistorySnapshot(snapshot)
        case .unknown where isOfUnknownType:
            // A type rws does not know is kept as written (few, small; the JSON export carries it).
            record.raw = raw.owningItsBytes
        case .system, .summary, .queueOperation, .metadata, .costState, .unknown:
            break
        }
        return record
    }
}

extension ContentBlock {
    /// The block with every ``RawJSON`` in it copied out of the buffer it was read from.
    var owningItsBytes: ContentBlock {
        switch self {
        case .text, .thinking:
            return self
        case .redactedThinking(var block):
            block.data = block.data?.owningItsBytes
            return .redactedThinking(block)
        case .toolUse(var call):
            call.input = call.input.owningItsBytes
            return .toolUse(call)
        case .toolResult(var result):
            result.content = result.content.map(\.owningItsBytes)
            return .toolResult(result)
        case .image(var media):
            media.data = media.data?.owningItsBytes
            return .image(media)
        case .document(var media):
            media.data = media.data?.owningItsBytes
            return .document(media)
        case .unknown(var block):
            block.raw = block.raw.owningItsBytes
            return .unknown(block)
        }
    }
}

extension RawJSON {
    /// The same bytes in an array of their own (a slice keeps its whole buffer alive).
    var owningItsBytes: RawJSON { RawJSON(bytes: ArraySlice(Array(bytes))) }
}
