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

    private static func appendQuoted(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            // C1 controls and DEL too: the same text, but a terminal showing the JSON obeys none of it.
            case let control where control.value < 0x20 || (0x7F...0x9F).contains(control.value):
                let hex = String(control.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
