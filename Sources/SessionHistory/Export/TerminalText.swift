/// Makes text from a session file or a remote box safe to print on a terminal.
///
/// Session titles, prompts, tool output and remote file names are written by whoever controls
/// the box. Printed raw, an escape sequence in them can move the cursor, rewrite what was shown,
/// set the window title, or (on some terminals) answer back as if typed. Every control character
/// is shown visibly instead: `ESC` as `\e`, `CR` as `\r`, other C0 controls and `DEL` as `\x07`
/// style, C1 controls and bidirectional overrides as `\u009b` style. Newlines and tabs are kept
/// in multi-line text (a transcript), and shown as `\n` and `\t` in one-line text (a name).
public enum TerminalText {
    /// `text` with its control characters shown visibly.
    ///
    /// - Parameters:
    ///   - text: Text from a session file or a remote box.
    ///   - keepingLineBreaks: Keep `\n` and `\t` as they are (multi-line text).
    /// - Returns: The text, unchanged when it holds nothing to neutralise.
    public static func neutralize(_ text: String, keepingLineBreaks: Bool = true) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0, keepingLineBreaks: keepingLineBreaks) }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if needsEscape(scalar, keepingLineBreaks: keepingLineBreaks) {
                result.append(contentsOf: escape(scalar).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar, keepingLineBreaks: Bool) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: return !keepingLineBreaks
        case 0x00...0x1F, 0x7F, 0x80...0x9F: return true
        case 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x1B: return "\\e"
        case 0x0D: return "\\r"
        case 0x0A: return "\\n"
        case 0x09: return "\\t"
        case let value where value <= 0x7F: return "\\x" + hex(value, digits: 2)
        default: return "\\u" + hex(scalar.value, digits: 4)
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
