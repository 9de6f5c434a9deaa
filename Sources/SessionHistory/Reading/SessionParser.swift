import Foundation

/// Reads session JSONL bytes into records: a whole file, or a byte range of one.
///
/// Never throws: each line that cannot be decoded is reported in ``ParsedLines/issues`` with its
/// line number, and reading goes on with the next line.
public enum SessionParser {
    /// Decodes every line of a whole file's bytes (a missing final newline is fine).
    public static func parse(_ bytes: [UInt8]) -> ParsedLines {
        LineParser.parse(owner: bytes, range: bytes.indices, from: .init(line: 1, byteOffset: 0), isFinal: true)
    }

    /// Decodes every line of a whole file's bytes.
    public static func parse(_ data: Data) -> ParsedLines {
        parse([UInt8](data))
    }

    /// Decodes the lines in bytes read from somewhere inside a file.
    ///
    /// - Parameters:
    ///   - bytes: the bytes read.
    ///   - fileOffset: where `bytes` start in the file; record offsets are reported in file terms.
    ///   - startsAtLineStart: whether `bytes` begin a line (offset 0, or the byte before was `\n`).
    ///     If not, everything up to the first newline is a fragment and is skipped.
    ///   - reachesEndOfFile: whether `bytes` end where the file ends. If not, a last line without
    ///     newline is a fragment and is not consumed (see ``ParsedLines/consumedByteCount``).
    ///   - firstLineNumber: the line number of the first complete line, when the caller knows it;
    ///     otherwise lines are numbered from 1 within the range.
    public static func parse(
        range bytes: [UInt8], fileOffset: Int, startsAtLineStart: Bool, reachesEndOfFile: Bool, firstLineNumber: Int = 1
    ) -> ParsedLines {
        var start = 0
        if !startsAtLineStart {
            guard let newline = bytes.firstIndex(of: 0x0A) else {
                var result = ParsedLines()
                result.consumedByteCount = reachesEndOfFile ? bytes.count : 0
                return result
            }
            start = newline + 1
        }
        let position = LineParser.Position(line: firstLineNumber, byteOffset: fileOffset + start)
        var result = LineParser.parse(owner: bytes, range: start..<bytes.count, from: position, isFinal: reachesEndOfFile)
        result.consumedByteCount += start
        return result
    }

    /// Reads and decodes a local file.
    ///
    /// - Throws: ``SessionHistoryError/unreadableFile(path:reason:)`` when it cannot be read.
    public static func parseFile(at url: URL) throws(SessionHistoryError) -> ParsedLines {
        parse(try LocalFiles.readAll(url))
    }

    /// Reads and decodes a local file, keeping what `retention` says. With
    /// ``SourceRetention/conversation`` the file is read and decoded a chunk at a time and never
    /// held whole.
    ///
    /// - Throws: ``SessionHistoryError/unreadableFile(path:reason:)`` when it cannot be read.
    public static func parseFile(at url: URL, retention: SourceRetention) throws(SessionHistoryError) -> ParsedLines {
        try parseFile(at: url, retention: retention, chunkSize: 4 << 20)
    }

    /// ``parseFile(at:retention:)`` decoding `chunkSize` bytes at a time when the file is not held whole.
    static func parseFile(at url: URL, retention: SourceRetention, chunkSize: Int) throws(SessionHistoryError) -> ParsedLines {
        guard retention == .conversation else { return try parseFile(at: url) }
        var stream = SessionStream(retention: retention)
        var lines = ParsedLines()
        try LocalFiles.read(url, chunkSize: chunkSize) { lines.append(stream.append($0)) }
        lines.append(stream.finish())
        return lines
    }
}
