/// Scalars, skipping, and lenient typed reads used by the record decoders.
extension JSONScanner {
    /// Skips one value of any kind, validating it.
    mutating func skipValue() throws(JSONError) {
        guard let byte = peek() else { throw endError() }
        switch byte {
        case 0x22:
            pos += 1
            _ = try scanStringBody()
        case 0x7B:
            try enter(0x7B)
            var cursor = ContainerCursor()
            while try nextKey(&cursor) != nil { try skipValue() }
        case 0x5B:
            try enter(0x5B)
            var cursor = ContainerCursor()
            while try nextElement(&cursor) { try skipValue() }
        case 0x74: try literal("true")
        case 0x66: try literal("false")
        case 0x6E: try literal("null")
        default:
            guard byte == 0x2D || isDigit(byte) else { throw byteError() }
            _ = try scanNumber()
        }
    }

    /// Skips one value and returns the absolute byte range it occupied.
    mutating func captureValue() throws(JSONError) -> Range<Int> {
        skipWhitespace()
        let start = pos
        try skipValue()
        return start..<pos
    }

    mutating func literal(_ word: StaticString) throws(JSONError) {
        let count = word.utf8CodeUnitCount
        guard pos + count <= end else { throw endError() }
        for index in 0..<count where base[pos + index] != word.utf8Start[index] {
            pos += index
            throw byteError()
        }
        pos += count
    }

    /// Reads a number per JSON's grammar; returns its absolute range and whether it is an integer.
    mutating func scanNumber() throws(JSONError) -> (range: Range<Int>, isInteger: Bool) {
        let start = pos
        if pos < end, base[pos] == 0x2D { pos += 1 }
        guard pos < end, isDigit(base[pos]) else { throw numberError(start) }
        if base[pos] == 0x30 { pos += 1 } else { skipDigits() }
        var isInteger = true
        if pos < end, base[pos] == 0x2E {
            isInteger = false
            pos += 1
            guard pos < end, isDigit(base[pos]) else { throw numberError(start) }
            skipDigits()
        }
        if pos < end, base[pos] | 0x20 == 0x65 {
            isInteger = false
            pos += 1
            if pos < end, base[pos] == 0x2B || base[pos] == 0x2D { pos += 1 }
            guard pos < end, isDigit(base[pos]) else { throw numberError(start) }
            skipDigits()
        }
        return (start..<pos, isInteger)
    }

    private func numberError(_ start: Int) -> JSONError {
        pos >= end ? endError() : .invalidNumber(offset: start - origin)
    }

    @inline(__always) func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    @inline(__always) private mutating func skipDigits() {
        while pos < end, isDigit(base[pos]) { pos += 1 }
    }

    /// The value of a scanned number.
    func number(_ range: Range<Int>, isInteger: Bool) -> Double {
        if isInteger, range.count < 16, let value = integer(range) { return Double(value) }
        let text = String(decoding: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), as: UTF8.self)
        return Double(text) ?? .nan
    }

    /// The value of an integer token that fits in `Int`, else `nil`.
    func integer(_ range: Range<Int>) -> Int? {
        var index = range.lowerBound
        let negative = base[index] == 0x2D
        if negative { index += 1 }
        var value = 0
        while index < range.upperBound {
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int(base[index] &- 0x30))
            if overflow1 || overflow2 { return nil }
            value = sum
            index += 1
        }
        return negative ? -value : value
    }

    // MARK: Lenient typed reads: a value of another type is skipped and reads as nil.

    /// A string value; anything else (null, number, object…) is skipped and gives `nil`.
    mutating func readString() throws(JSONError) -> String? {
        guard peek() == 0x22 else {
            try skipValue()
            return nil
        }
        return try string(scanString())
    }

    /// A boolean value; anything else is skipped and gives `nil`.
    mutating func readBool() throws(JSONError) -> Bool? {
        switch peek() {
        case 0x74:
            try literal("true")
            return true
        case 0x66:
            try literal("false")
            return false
        default:
            try skipValue()
            return nil
        }
    }

    /// An integer value (a fractional number is truncated); anything else, or a number outside
    /// `Int`, gives `nil`.
    mutating func readInt() throws(JSONError) -> Int? {
        try readInteger(clamping: false)
    }

    /// An integer value clamped to `Int`'s bounds (`1e30` reads as `Int.max`, a fraction is
    /// truncated); anything else gives `nil`.
    mutating func readClampedInt() throws(JSONError) -> Int? {
        try readInteger(clamping: true)
    }

    private mutating func readInteger(clamping: Bool) throws(JSONError) -> Int? {
        guard let byte = peek(), byte == 0x2D || isDigit(byte) else {
            try skipValue()
            return nil
        }
        let (range, isInteger) = try scanNumber()
        if isInteger, let value = integer(range) { return value }
        let value = number(range, isInteger: false)
        if value.isNaN { return nil }
        if abs(value) < 9e18 { return Int(value) }
        guard clamping else { return nil }
        return value > 0 ? .max : .min
    }

    /// A number value as a `Double`; anything else gives `nil`.
    mutating func readDouble() throws(JSONError) -> Double? {
        guard let byte = peek(), byte == 0x2D || isDigit(byte) else {
            try skipValue()
            return nil
        }
        let (range, isInteger) = try scanNumber()
        let value = number(range, isInteger: isInteger)
        return value.isFinite ? value : nil
    }

    /// Whether the next value is an object (not consumed).
    mutating func atObject() -> Bool { peek() == 0x7B }

    /// Whether the next value is an array (not consumed).
    mutating func atArray() -> Bool { peek() == 0x5B }
}
