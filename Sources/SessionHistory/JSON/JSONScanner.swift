/// A position in a JSON string value: the bytes between its quotes, not yet decoded.
struct StringToken {
    /// Absolute index of the first byte after the opening quote.
    var start: Int
    /// Absolute index of the closing quote.
    var end: Int
    /// Whether a backslash occurs inside; only then does decoding need the slow path.
    var hasEscapes: Bool
}

/// Iteration state of an object or array being read with ``JSONScanner/nextKey(_:)``.
struct ContainerCursor {
    var isFirst = true
}

/// A forward-only, byte-level JSON reader over a borrowed buffer.
///
/// It never allocates while scanning: strings are returned as ``StringToken``s and decoded only
/// when a caller wants them, values a caller does not need are skipped (still validated).
/// Nesting is capped at ``maximumDepth`` so hostile input cannot overflow the stack.
/// The buffer must outlive the scanner (callers use `withUnsafeBufferPointer`).
struct JSONScanner {
    /// Deepest nesting of arrays and objects accepted.
    static let maximumDepth = 512

    let base: UnsafePointer<UInt8>
    /// Absolute index that error offsets are measured from (the line start).
    let origin: Int
    /// Absolute index one past the last readable byte.
    let end: Int
    /// Absolute index of the next unread byte.
    var pos: Int
    var depth = 0

    init(base: UnsafePointer<UInt8>, range: Range<Int>) {
        self.base = base
        self.origin = range.lowerBound
        self.end = range.upperBound
        self.pos = range.lowerBound
    }

    // MARK: Bytes

    @inline(__always) mutating func skipWhitespace() {
        while pos < end {
            let byte = base[pos]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            pos += 1
        }
    }

    /// The next non-whitespace byte, not consumed; `nil` at the end.
    @inline(__always) mutating func peek() -> UInt8? {
        skipWhitespace()
        return pos < end ? base[pos] : nil
    }

    func endError() -> JSONError { .unexpectedEnd(offset: pos - origin) }

    func byteError() -> JSONError {
        pos < end ? .unexpectedByte(base[pos], offset: pos - origin) : endError()
    }

    @inline(__always) mutating func expect(_ byte: UInt8) throws(JSONError) {
        skipWhitespace()
        guard pos < end, base[pos] == byte else { throw byteError() }
        pos += 1
    }

    /// Throws unless only whitespace is left.
    mutating func expectEnd() throws(JSONError) {
        skipWhitespace()
        if pos < end { throw .trailingBytes(offset: pos - origin) }
    }

    // MARK: Strings

    /// Reads a string whose opening quote is the next byte.
    @inline(__always) mutating func scanString() throws(JSONError) -> StringToken {
        try expect(0x22)
        return try scanStringBody()
    }

    /// Reads up to and including the closing quote; `pos` is just after the opening quote.
    mutating func scanStringBody() throws(JSONError) -> StringToken {
        let start = pos
        var index = pos
        var hasEscapes = false
        while true {
            // Eight bytes at a time while none of them is a quote or a backslash.
            while index + 8 <= end {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if Self.hasQuoteOrBackslash(word) { break }
                index += 8
            }
            guard index < end else {
                pos = end
                throw endError()
            }
            let byte = base[index]
            if byte == 0x22 {
                pos = index + 1
                return StringToken(start: start, end: index, hasEscapes: hasEscapes)
            }
            if byte == 0x5C {
                hasEscapes = true
                index += 2
            } else {
                index += 1
            }
        }
    }

    @inline(__always) static func hasQuoteOrBackslash(_ word: UInt64) -> Bool {
        let low: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ 0x2222_2222_2222_2222
        let slashes = word ^ 0x5C5C_5C5C_5C5C_5C5C
        return (((quotes &- low) & ~quotes) | ((slashes &- low) & ~slashes)) & high != 0
    }

    /// The decoded text of a string token; lone surrogates and invalid UTF-8 become U+FFFD.
    func string(_ token: StringToken) throws(JSONError) -> String {
        let bytes = UnsafeBufferPointer(start: base + token.start, count: token.end - token.start)
        if !token.hasEscapes { return String(decoding: bytes, as: UTF8.self) }
        return try JSONUnescaper.decode(bytes, offset: token.start - origin)
    }

    /// Whether a key equals `name` (compared as bytes; escaped keys are decoded first).
    @inline(__always) func matches(_ token: StringToken, _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        if token.hasEscapes { return (try? string(token)) == name.description }
        guard token.end - token.start == count else { return false }
        let expected = name.utf8Start
        for index in 0..<count where base[token.start + index] != expected[index] {
            return false
        }
        return true
    }

    // MARK: Containers

    /// Consumes `{` (or `[`) and counts the nesting level.
    mutating func enter(_ opening: UInt8) throws(JSONError) {
        try expect(opening)
        depth += 1
        if depth > Self.maximumDepth { throw .nestingTooDeep(offset: pos - 1 - origin) }
    }

    /// The next key of an object entered with ``enter(_:)``, or `nil` after its closing brace.
    mutating func nextKey(_ cursor: inout ContainerCursor) throws(JSONError) -> StringToken? {
        guard try advance(&cursor, closing: 0x7D) else { return nil }
        let key = try scanString()
        try expect(0x3A)
        return key
    }

    /// Whether another element follows in an array entered with ``enter(_:)``.
    mutating func nextElement(_ cursor: inout ContainerCursor) throws(JSONError) -> Bool {
        try advance(&cursor, closing: 0x5D)
    }

    private mutating func advance(_ cursor: inout ContainerCursor, closing: UInt8) throws(JSONError) -> Bool {
        skipWhitespace()
        guard pos < end else { throw endError() }
        if base[pos] == closing {
            pos += 1
            depth -= 1
            return false
        }
        if cursor.isFirst {
            cursor.isFirst = false
            return true
        }
        guard base[pos] == 0x2C else { throw byteError() }
        pos += 1
        return true
    }
}
