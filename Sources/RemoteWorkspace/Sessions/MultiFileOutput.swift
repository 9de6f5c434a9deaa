/// Splits the output of `head -c N f1 f2 ...` or `tail -c N f1 f2 ...` back into files.
///
/// GNU and BusyBox print the same frame: `==> NAME <==\n` before the first file and
/// `\n==> NAME <==\n` before each next one. Each file's bytes are expected to be exactly
/// `min(size, N)` long (the size from the `stat` just before); when the next header is found
/// there, the piece is exact. A file that changed in between gives a piece of another length:
/// it is then cut at the next header naming a file that was asked for, and marked unsure.
enum MultiFileOutput {
    /// One file's bytes from the output.
    struct Piece: Sendable {
        var bytes: [UInt8]
        /// False when the piece's length was not the expected one (the file changed meanwhile).
        var isExact: Bool
    }

    private static let open = Array("==> ".utf8)
    private static let close = Array(" <==\n".utf8)

    /// The pieces by file name. `expectedLength` gives `min(size, N)` for a file asked for, nil otherwise.
    static func split(_ content: [UInt8], expectedLength: (String) -> Int?) -> [String: Piece] {
        var pieces: [String: Piece] = [:]
        var position = 0
        while position < content.count {
            if position > 0, content[position] == UInt8(ascii: "\n") { position += 1 }
            guard let (name, dataStart) = header(in: content, at: position) else { break }
            let expected = name == "/dev/null" ? 0 : expectedLength(name)
            if let expected, dataStart + expected <= content.count,
                dataStart + expected == content.count || nextHeader(in: content, at: dataStart + expected, expectedLength)
            {
                pieces[name] = Piece(bytes: Array(content[dataStart..<(dataStart + expected)]), isExact: true)
                position = dataStart + expected
                continue
            }
            let end = resync(content, from: dataStart, expectedLength) ?? content.count
            pieces[name] = Piece(bytes: Array(content[dataStart..<end]), isExact: false)
            position = end
        }
        return pieces
    }

    /// The name in a header starting at `position`, and where the data after it starts.
    private static func header(in content: [UInt8], at position: Int) -> (String, Int)? {
        guard content.count - position >= open.count + close.count,
            content[position..<(position + open.count)].elementsEqual(open)
        else { return nil }
        var index = position + open.count
        while index + close.count <= content.count {
            if content[index] == UInt8(ascii: " "), content[index..<(index + close.count)].elementsEqual(close) {
                return (String(decoding: content[(position + open.count)..<index], as: UTF8.self), index + close.count)
            }
            if content[index] == UInt8(ascii: "\n") { return nil }
            index += 1
        }
        return nil
    }

    /// Whether a separator and a header of a file that was asked for start at `position`.
    private static func nextHeader(in content: [UInt8], at position: Int, _ expectedLength: (String) -> Int?) -> Bool {
        guard position < content.count, content[position] == UInt8(ascii: "\n"),
            let (name, _) = header(in: content, at: position + 1)
        else { return false }
        return name == "/dev/null" || expectedLength(name) != nil
    }

    /// The next position holding a separator and a header of a file asked for.
    private static func resync(_ content: [UInt8], from start: Int, _ expectedLength: (String) -> Int?) -> Int? {
        var index = start
        while index < content.count {
            if content[index] == UInt8(ascii: "\n"), nextHeader(in: content, at: index, expectedLength) { return index }
            index += 1
        }
        return nil
    }
}
