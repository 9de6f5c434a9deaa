import Foundation

/// Decodes the escapes of a JSON string body.
///
/// Claude Code writes unpaired UTF-16 surrogate escapes (`"\udcb2"`) when a tool printed bytes
/// that were not UTF-8. Strict decoders reject the whole line; here each lone surrogate becomes
/// U+FFFD so the line is kept. Raw invalid UTF-8 is repaired the same way by `String(decoding:)`.
enum JSONUnescaper {
    /// The text of `body` (the bytes between the quotes); `offset` places errors in the line.
    static func decode(_ body: UnsafeBufferPointer<UInt8>, offset: Int) throws(JSONError) -> String {
        // Every escape is longer than what it stands for, so `body.count` bytes always suffice.
        var failure: JSONError?
        let text = String(unsafeUninitializedCapacity: body.count) { output in
            switch Result(catching: { () throws(JSONError) in try unescape(body, into: output, offset: offset) }) {
            case .success(let count): return count
            case .failure(let error):
                failure = error
                return 0
            }
        }
        if let failure { throw failure }
        return text
    }

    /// Copies runs without escapes in bulk and decodes each escape; returns the bytes written.
    private static func unescape(
        _ body: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>, offset: Int
    ) throws(JSONError) -> Int {
        guard let source = body.baseAddress, let target = output.baseAddress else { return 0 }
        var writer = Writer(base: target)
        var index = 0
        var pendingHigh: UInt32?
        while index < body.count {
            let run =
                memchr(source + index, 0x5C, body.count - index)
                .map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) - source } ?? body.count
            if run > index {
                flush(&pendingHigh, into: &writer)
                writer.copy(source + index, count: run - index)
                index = run
                continue
            }
            guard index + 1 < body.count else { throw .invalidEscape(offset: offset + index) }
            let kind = body[index + 1]
            if kind == 0x75 {
                let unit = try hexUnit(body, at: index + 2, offset: offset)
                index += 6
                appendUTF16(unit, pending: &pendingHigh, into: &writer)
                continue
            }
            flush(&pendingHigh, into: &writer)
            guard let simple = simpleEscape(kind) else { throw .invalidEscape(offset: offset + index) }
            writer.append(simple)
            index += 2
        }
        flush(&pendingHigh, into: &writer)
        return writer.count
    }

    /// Appends bytes to the string's uninitialised buffer.
    private struct Writer {
        let base: UnsafeMutablePointer<UInt8>
        var count = 0

        mutating func append(_ byte: UInt8) {
            base[count] = byte
            count += 1
        }

        mutating func copy(_ source: UnsafePointer<UInt8>, count length: Int) {
            (base + count).update(from: source, count: length)
            count += length
        }
    }

    private static func simpleEscape(_ kind: UInt8) -> UInt8? {
        switch kind {
        case 0x22, 0x5C, 0x2F: return kind
        case 0x62: return 0x08
        case 0x66: return 0x0C
        case 0x6E: return 0x0A
        case 0x72: return 0x0D
        case 0x74: return 0x09
        default: return nil
        }
    }

    private static func hexUnit(_ body: UnsafeBufferPointer<UInt8>, at start: Int, offset: Int) throws(JSONError) -> UInt32 {
        guard start + 4 <= body.count else { throw .invalidEscape(offset: offset + start - 2) }
        var value: UInt32 = 0
        for index in start..<start + 4 {
            let byte = body[index]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw .invalidEscape(offset: offset + start - 2)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Combines surrogate pairs; a high surrogate waits in `pending` for its low half.
    private static func appendUTF16(_ unit: UInt32, pending: inout UInt32?, into output: inout Writer) {
        if (0xDC00...0xDFFF).contains(unit), let high = pending {
            pending = nil
            appendScalar(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00), into: &output)
            return
        }
        flush(&pending, into: &output)
        if (0xD800...0xDBFF).contains(unit) {
            pending = unit
        } else if (0xDC00...0xDFFF).contains(unit) {
            appendScalar(0xFFFD, into: &output)
        } else {
            appendScalar(unit, into: &output)
        }
    }

    /// A high surrogate not followed by a low one is replaced by U+FFFD.
    @inline(__always) private static func flush(_ pending: inout UInt32?, into output: inout Writer) {
        guard pending != nil else { return }
        pending = nil
        appendScalar(0xFFFD, into: &output)
    }

    private static func appendScalar(_ scalar: UInt32, into output: inout Writer) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
