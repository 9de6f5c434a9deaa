/// A path inside a git repository, relative to its top, exactly as git stores it: bytes, which
/// need not be UTF-8 (git allows any byte but NUL).
public struct GitPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The path's bytes.
    public let bytes: [UInt8]

    /// A path from its bytes.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// A path from text (UTF-8).
    public init(_ text: String) { bytes = Array(text.utf8) }

    /// The path as text; bytes that are not UTF-8 become U+FFFD, so show it, never act on it.
    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the bytes are valid UTF-8, so that ``description`` is the path itself.
    public var isValidUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// Byte order, as git sorts paths.
    public static func < (lhs: GitPath, rhs: GitPath) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
}
