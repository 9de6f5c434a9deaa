/// Makes text from a session file or a remote box safe to print on a terminal.
///
/// Session titles, prompts, tool output and remote file names are written by whoever controls
/// the box. Printed raw, an escape sequence in them can move the cursor, rewrite what was shown,
/// set the window title, or (on some terminals) answer back as if typed. Every control character
/// is shown visibly instead: `ESC` as `\e`, `CR` as `\r`, other C0 controls and `DEL` as `\x07`
/// style, C1 controls and bidirectional overrides as `\u009b` style. Newlines and tabs are kept
/// in multi-line text (a transcript), and shown as `\n` and `\t` in one-line text (a name).
package enum TerminalText {
    /// `text` with its control characters shown visibly.
    ///
    /// - Parameters:
    ///   - text: Text from a session file or a remote box.
    ///   - keepingLineBreaks: Keep `\n` and `\t` as they are (multi-line text).
    /// - Returns: The text, unchanged when it holds nothing to neutralise.
    package static func neutralize(_ text: String, keepingLineBreaks: Bool = true) -> String {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = firstEscape(in: bytes, from: 0, keepingLineBreaks: keepingLineBreaks) else { return nil }
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + 64)
            var copied = 0
            var found: (start: Int, length: Int, scalar: UInt32)? = first
            while let (start, length, scalar) = found {
                output.append(contentsOf: bytes[copied..<start])
                output.append(contentsOf: escape(scalar).utf8)
                copied = start + length
                found = firstEscape(in: bytes, from: copied, keepingLineBreaks: keepingLineBreaks)
            }
            output.append(contentsOf: bytes[copied...])
            return String(decoding: output, as: UTF8.self)
        } ?? text
    }

    /// The next character to show escaped, read from UTF-8: where it starts, its byte length and its scalar.
    private static func firstEscape(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, keepingLineBreaks: Bool
    ) -> (start: Int, length: Int, scalar: UInt32)? {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x7F {
                if !(keepingLineBreaks && (byte == 0x0A || byte == 0x09)) { return (index, 1, UInt32(byte)) }
            } else if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
                return (index, 2, UInt32(bytes[index + 1]))
            } else if byte == 0xE2, index + 2 < bytes.count {
                let scalar = 0x2000 | (UInt32(bytes[index + 1] & 0x3F) << 6) | UInt32(bytes[index + 2] & 0x3F)
                if bytes[index + 1] == 0x80 || bytes[index + 1] == 0x81, needsEscape(scalar) { return (index, 3, scalar) }
            }
            index += 1
        }
        return nil
    }

    /// The bidirectional overrides and isolates (C0, DEL and C1 are found byte by byte).
    private static func needsEscape(_ scalar: UInt32) -> Bool {
        (0x202A...0x202E).contains(scalar) || (0x2066...0x2069).contains(scalar)
    }

    private static func escape(_ scalar: UInt32) -> String {
        switch scalar {
        case 0x1B: return "\\e"
        case 0x0D: return "\\r"
        case 0x0A: return "\\n"
        case 0x09: return "\\t"
        case let value where value <= 0x7F: return "\\x" + hex(value, digits: 2)
        default: return "\\u" + hex(scalar, digits: 4)
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
