/// Why a piece of JSON could not be read.
///
/// Every case carries the byte offset, relative to the start of the parsed text, where reading
/// stopped, so a caller can point at the bad spot in a line.
public enum JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text ended before the value was complete (a torn line, or a truncated head/tail read).
    case unexpectedEnd(offset: Int)
    /// A byte that cannot start or continue a JSON value at this place.
    case unexpectedByte(UInt8, offset: Int)
    /// A backslash escape that JSON does not define, or a malformed `\u` escape.
    case invalidEscape(offset: Int)
    /// A number that does not follow JSON's grammar.
    case invalidNumber(offset: Int)
    /// Arrays and objects nested deeper than 512 levels; refused so deep input cannot exhaust the stack.
    case nestingTooDeep(offset: Int)
    /// Bytes after the end of the single top-level value.
    case trailingBytes(offset: Int)

    /// The byte offset where reading stopped.
    public var offset: Int {
        switch self {
        case .unexpectedEnd(let offset), .unexpectedByte(_, let offset), .invalidEscape(let offset),
            .invalidNumber(let offset), .nestingTooDeep(let offset), .trailingBytes(let offset):
            return offset
        }
    }

    /// A short English explanation including the offset.
    public var description: String {
        switch self {
        case .unexpectedEnd(let offset): return "JSON ends early at byte \(offset)"
        case .unexpectedByte(let byte, let offset):
            return "unexpected byte 0x\(String(byte, radix: 16)) at byte \(offset)"
        case .invalidEscape(let offset): return "invalid escape at byte \(offset)"
        case .invalidNumber(let offset): return "invalid number at byte \(offset)"
        case .nestingTooDeep(let offset): return "nesting deeper than \(JSONScanner.maximumDepth) at byte \(offset)"
        case .trailingBytes(let offset): return "unexpected bytes after the value at byte \(offset)"
        }
    }
}
