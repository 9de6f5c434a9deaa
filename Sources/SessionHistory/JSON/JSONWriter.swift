/// Serialises ``JSONValue`` trees to JSON text.
package enum JSONWriter {
    /// The JSON text of `value`; `pretty` adds newlines and two-space indentation.
    package static func string(from value: JSONValue, pretty: Bool = false) -> String {
        var output = ""
        write(value, to: &output, indent: pretty ? 0 : nil)
        return output
    }

    /// `text` as a JSON string literal, quotes included.
    package static func quoted(_ text: String) -> String {
        var output = ""
        appendQuoted(text, to: &output)
        return output
    }

    private static func write(_ value: JSONValue, to output: inout String, indent: Int?) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let number): output += format(number)
        case .string(let text): appendQuoted(text, to: &output)
        case .array(let elements):
            writeContainer(elements, open: "[", close: "]", to: &output, indent: indent) { element, output, inner in
                write(element, to: &output, indent: inner)
            }
        case .object(let object):
            writeContainer(object.members, open: "{", close: "}", to: &output, indent: indent) { member, output, inner in
                appendQuoted(member.key, to: &output)
                output += inner == nil ? ":" : ": "
                write(member.value, to: &output, indent: inner)
            }
        }
    }

    private static func writeContainer<Element>(
        _ elements: [Element], open: String, close: String, to output: inout String, indent: Int?,
        element writeElement: (Element, inout String, Int?) -> Void
    ) {
        output += open
        guard !elements.isEmpty else {
            output += close
            return
        }
        let inner = indent.map { $0 + 2 }
        for (index, element) in elements.enumerated() {
            if index > 0 { output += "," }
            if let inner { output += "\n" + String(repeating: " ", count: inner) }
            writeElement(element, &output, inner)
        }
        if let indent { output += "\n" + String(repeating: " ", count: indent) }
        output += close
    }

    private static func format(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number == number.rounded(), abs(number) < 1e15 { return String(Int(number)) }
        return "\(number)"
    }

    /// Runs of bytes that need no escape are copied whole; the UTF-8 is walked once.
    private static func appendQuoted(_ text: String, to output: inout String) {
        var text = text
        output += "\""
        text.withUTF8 { bytes in
            var runStart = 0
            var index = 0
            func flush(_ end: Int) {
                if end > runStart { output += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<end]), as: UTF8.self) }
            }
            while index < bytes.count {
                let byte = bytes[index]
                let escape: String?
                var width = 1
                switch byte {
                case 0x22: escape = "\\\""
                case 0x5C: escape = "\\\\"
                case 0x0A: escape = "\\n"
                case 0x0D: escape = "\\r"
                case 0x09: escape = "\\t"
                // C1 controls and DEL too: the same text, but a terminal showing the JSON obeys none of it.
                case 0x00..<0x20, 0x7F: escape = unicodeEscape(UInt32(byte))
                case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]):
                    escape = unicodeEscape(UInt32(bytes[index + 1]))
                    width = 2
                default: escape = nil
                }
                if let escape {
                    flush(index)
                    output += escape
                    runStart = index + width
                }
                index += width
            }
            flush(bytes.count)
        }
        output += "\""
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
