/// A line that could not be decoded. It is counted and reported, never fatal to the file.
public struct LineIssue: Sendable, Equatable, CustomStringConvertible {
    /// Where the line is.
    public var location: LineLocation
    /// What was wrong.
    public var reason: Reason
    /// The first bytes of the line, for a message.
    public var excerpt: String

    /// Why a line was not turned into a record.
    public enum Reason: Sendable, Equatable {
        /// The line is not one valid JSON object.
        case invalidJSON(JSONError)
        /// The file ends with a line that has no newline and does not parse: a write in progress
        /// or a truncated copy.
        case tornLastLine(JSONError)
    }

    /// Creates an issue.
    public init(location: LineLocation, reason: Reason, excerpt: String) {
        self.location = location
        self.reason = reason
        self.excerpt = excerpt
    }

    /// `line N: reason`.
    public var description: String {
        switch reason {
        case .invalidJSON(let error): return "line \(location.line): \(error)"
        case .tornLastLine(let error): return "line \(location.line) (torn last line): \(error)"
        }
    }
}

/// The outcome of reading a run of lines: records in file order plus what could not be read.
public struct ParsedLines: Sendable {
    /// The decoded records, in file order.
    public var records: [SessionRecord] = []
    /// Lines that failed to decode.
    public var issues: [LineIssue] = []
    /// Lines seen, including blank and failed ones.
    public var lineCount = 0
    /// Lines holding only whitespace.
    public var blankLineCount = 0
    /// Bytes consumed; a partial last line that waits for more bytes is not included.
    public var consumedByteCount = 0

    /// Creates an empty result.
    public init() {}

    /// Appends another run that follows this one.
    public mutating func append(_ other: ParsedLines) {
        records += other.records
        issues += other.issues
        lineCount += other.lineCount
        blankLineCount += other.blankLineCount
        consumedByteCount += other.consumedByteCount
    }
}
