import Foundation

/// Splits a byte buffer into lines and decodes each one (the engine behind every reader).
///
/// Lines end at `\n`; a `\r` before it is dropped; whitespace-only lines are counted as blank.
/// Line length is unlimited (no fixed buffer), so multi-megabyte lines are fine.
enum LineParser {
    /// Where the run starts, for numbering lines and offsets.
    struct Position {
        var line: Int
        var byteOffset: Int
    }

    /// Decodes the lines of `owner[range]`. Without `isFinal`, a last line lacking its newline is
    /// left unconsumed for the caller to complete; with it, that line is decoded too.
    static func parse(owner: [UInt8], range: Range<Int>, from position: Position, isFinal: Bool) -> ParsedLines {
        owner.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return ParsedLines() }
            var result = ParsedLines()
            result.records.reserveCapacity(range.count / 2048)
            let pool = StringPool()
            var start = range.lowerBound
            while start < range.upperBound {
                let newline = memchr(base + start, 0x0A, range.upperBound - start)
                    .map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) - base }
                if newline == nil && !isFinal { break }
                let stop = newline ?? range.upperBound
                let location = LineLocation(
                    line: position.line + result.lineCount, byteOffset: position.byteOffset + start - range.lowerBound)
                decodeLine(
                    owner: owner, base: base, range: start..<stop, location: location, isTorn: newline == nil, pool: pool, into: &result)
                start = stop + 1
            }
            result.consumedByteCount = min(start, range.upperBound) - range.lowerBound
            return result
        }
    }

    private static func decodeLine(
        owner: [UInt8], base: UnsafePointer<UInt8>, range: Range<Int>, location: LineLocation, isTorn: Bool, pool: StringPool,
        into result: inout ParsedLines
    ) {
        result.lineCount += 1
        var end = range.upperBound
        if end > range.lowerBound, base[end - 1] == 0x0D { end -= 1 }
        let line = range.lowerBound..<end
        var decoder = RecordDecoder(owner: owner, base: base, range: line, pool: pool)
        guard decoder.scanner.peek() != nil else {
            result.blankLineCount += 1
            return
        }
        var fields = RecordFields()
        do {
            try decoder.decode(into: &fields)
            result.records.append(RecordAssembler.record(from: fields, location: location, raw: RawJSON(bytes: owner[line])))
        } catch {
            let excerpt = String(decoding: owner[line.prefix(120)], as: UTF8.self)
            let reason: LineIssue.Reason = isTorn ? .tornLastLine(error) : .invalidJSON(error)
            result.issues.append(LineIssue(location: location, reason: reason, excerpt: excerpt))
        }
    }
}
