import SessionHistory

/// What a followed session brought.
public enum SessionFollowEvent: Sendable {
    /// A change to the conversation: a new entry, another chunk of a response, a title record.
    case conversation(ConversationEvent)
    /// The file was truncated or replaced: the conversation starts again from its first byte,
    /// with entry indexes from 0.
    case restarted(reason: String)
    /// The file is gone; following goes on and starts again if it comes back.
    case fileMissing
    /// The box is out of file descriptors, so its shell could not look at the file (not a missing
    /// file); following starts again every 2 s and goes on where it was once some are free.
    /// Said once per shortage.
    case boxOutOfDescriptors
}
