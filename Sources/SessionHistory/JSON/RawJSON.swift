/// The exact bytes of one JSON value as written in the session file, parsed only on demand.
///
/// Records keep large or open-ended parts (tool inputs, `toolUseResult`, image data, whole
/// lines) this way: no copy, no parse until someone asks. The slice shares the buffer the file
/// was read into.
public struct RawJSON: Sendable, Equatable {
    /// The UTF-8 bytes of the value.
    public let bytes: ArraySlice<UInt8>

    /// Wraps bytes that hold one JSON value.
    public init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    /// Wraps the UTF-8 of `text`.
    public init(_ text: String) {
        self.bytes = ArraySlice(text.utf8)
    }

    /// The bytes as text (invalid UTF-8 is replaced by U+FFFD).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Parses the bytes into a tree.
    ///
    /// - Throws: ``JSONError`` when the bytes are not one valid JSON value.
    public func parsed() throws(JSONError) -> JSONValue {
        try JSONValue(parsing: bytes)
    }

    /// The parsed tree, or `nil` when the bytes are not valid JSON.
    public var value: JSONValue? { try? parsed() }
}
