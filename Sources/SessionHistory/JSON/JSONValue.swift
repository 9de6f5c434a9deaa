/// A parsed JSON value, used for parts of records this module does not model (tool inputs,
/// structured tool results, unknown records) and for the JSON export.
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number (JSON does not distinguish integers).
    case number(Double)
    /// A string, already unescaped.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, keeping member order.
    case object(JSONObject)

    /// Parses one JSON value from UTF-8 bytes.
    ///
    /// - Throws: ``JSONError`` with the offset of the first problem.
    public init(parsing bytes: some Collection<UInt8>) throws(JSONError) {
        let result = bytes.withContiguousStorageIfAvailable { Self.parse($0) } ?? Array(bytes).withUnsafeBufferPointer { Self.parse($0) }
        self = try result.get()
    }

    private static func parse(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONError> {
        guard let base = buffer.baseAddress else { return .failure(.unexpectedEnd(offset: 0)) }
        var scanner = JSONScanner(base: base, range: 0..<buffer.count)
        do {
            let value = try scanner.parseValue()
            try scanner.expectEnd()
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    /// Parses one JSON value from a string.
    public init(parsing text: String) throws(JSONError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// The member named `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, when this is a number.
    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The integer value, when this is a whole number.
    public var intValue: Int? {
        guard let number = numberValue, let value = Int(exactly: number) else { return nil }
        return value
    }

    /// The boolean, when this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }
}

/// A JSON object that keeps its members in file order.
public struct JSONObject: Sendable, Equatable {
    /// The members in the order they were written.
    public var members: [JSONMember]

    /// Creates an object from members in order.
    public init(_ members: [JSONMember] = []) {
        self.members = members
    }

    /// The value of the last member named `key` (JSON parsers conventionally let the last one win).
    public subscript(key: String) -> JSONValue? {
        members.last(where: { $0.key == key })?.value
    }
}

/// One `"key": value` pair of a ``JSONObject``.
public struct JSONMember: Sendable, Equatable {
    /// The member name.
    public var key: String
    /// The member value.
    public var value: JSONValue

    /// Creates a member.
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}
