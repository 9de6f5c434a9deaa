/// Building a full ``JSONValue`` tree, for the parts of a record kept as generic JSON.
extension JSONScanner {
    /// Parses the next value into a tree; nesting is capped like every other read.
    mutating func parseValue() throws(JSONError) -> JSONValue {
        guard let byte = peek() else { throw endError() }
        switch byte {
        case 0x22:
            return .string(try string(scanString()))
        case 0x7B:
            try enter(0x7B)
            var members: [JSONMember] = []
            var cursor = ContainerCursor()
            while let key = try nextKey(&cursor) {
                let name = try string(key)
                members.append(JSONMember(name, try parseValue()))
            }
            return .object(JSONObject(members))
        case 0x5B:
            try enter(0x5B)
            var elements: [JSONValue] = []
            var cursor = ContainerCursor()
            while try nextElement(&cursor) { elements.append(try parseValue()) }
            return .array(elements)
        case 0x74:
            try literal("true")
            return .bool(true)
        case 0x66:
            try literal("false")
            return .bool(false)
        case 0x6E:
            try literal("null")
            return .null
        default:
            guard byte == 0x2D || isDigit(byte) else { throw byteError() }
            let (range, isInteger) = try scanNumber()
            return .number(number(range, isInteger: isInteger))
        }
    }
}
