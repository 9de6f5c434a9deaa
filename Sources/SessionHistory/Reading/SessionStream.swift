/// Decodes a session file that arrives in pieces: appended chunks of a growing file, or
/// consecutive byte ranges fetched one after another.
///
/// A chunk may end in the middle of a line; that part waits until the rest arrives (or
/// ``finish()`` is called). Line numbers and byte offsets continue across chunks.
package struct SessionStream: Sendable {
    private var pending: [UInt8] = []
    private var nextLine: Int
    private var nextOffset: Int
    private let retention: SourceRetention

    /// Starts at the beginning of a file, or at `byteOffset`/`lineNumber` when resuming after
    /// bytes already read (the offset must be a line start). With ``SourceRetention/conversation``
    /// the records hold no part of the chunks, so each chunk is freed once decoded.
    package init(byteOffset: Int = 0, lineNumber: Int = 1, retention: SourceRetention = .whole) {
        self.nextOffset = byteOffset
        self.nextLine = lineNumber
        self.retention = retention
    }

    /// File offset up to which lines are complete and decoded; resume reading here.
    package var committedByteOffset: Int { nextOffset }

    /// Bytes of an incomplete last line waiting for their end.
    package var pendingByteCount: Int { pending.count }

    /// Decodes the complete lines that `chunk` finishes; returns only the new ones.
    package mutating func append(_ chunk: some Collection<UInt8>) -> ParsedLines {
        var buffer = pending
        buffer.append(contentsOf: chunk)
        return consume(buffer, isFinal: false)
    }

    /// Decodes a waiting incomplete last line as the file's end (it is reported as torn if it
    /// does not parse).
    package mutating func finish() -> ParsedLines {
        consume(pending, isFinal: true)
    }

    private mutating func consume(_ buffer: [UInt8], isFinal: Bool) -> ParsedLines {
        let position = LineParser.Position(line: nextLine, byteOffset: nextOffset)
        var result = LineParser.parse(owner: buffer, range: buffer.indices, from: position, isFinal: isFinal)
        if retention == .conversation { result.records = result.records.map { $0.keepingConversation() } }
        pending = Array(buffer[result.consumedByteCount...])
        nextLine += result.lineCount
        nextOffset += result.consumedByteCount
        return result
    }
}
