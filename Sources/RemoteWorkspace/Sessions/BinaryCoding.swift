/// Appends values in the listing cache index's binary form (``CacheIndexCoding``).
struct BinaryWriter {
    private(set) var bytes: [UInt8] = []

    /// LEB128: seven bits a byte, low bits first.
    mutating func unsigned(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Zigzag, so that small negative numbers stay short.
    mutating func signed(_ value: Int) {
        let wide = Int64(value)
        unsigned(UInt64(bitPattern: (wide << 1) ^ (wide >> 63)))
    }

    mutating func string(_ value: String) {
        unsigned(UInt64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    /// A presence byte, then the value.
    mutating func optional<T>(_ value: T?, _ write: (inout BinaryWriter, T) -> Void) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        write(&self, value)
    }
}

/// Reads what ``BinaryWriter`` wrote; every read is nil past the end or on a malformed value.
struct BinaryReader {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { position == bytes.count }

    mutating func unsigned() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.count, shift < 64 {
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    mutating func signed() -> Int? {
        guard let raw = unsigned() else { return nil }
        let value = Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
        return Int(exactly: value)
    }

    /// A count of things that follow, each at least a byte long: never more than the bytes left.
    mutating func count() -> Int? {
        guard let raw = unsigned(), raw <= UInt64(bytes.count - position) else { return nil }
        return Int(raw)
    }

    mutating func string() -> String? {
        guard let length = count() else { return nil }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[position..<(position + length)]), as: UTF8.self)
        position += length
        return text
    }

    /// nil when malformed; `.some(nil)` when the value is absent.
    mutating func optional<T>(_ read: (inout BinaryReader) -> T?) -> T?? {
        guard position < bytes.count else { return nil }
        let flag = bytes[position]
        position += 1
        switch flag {
        case 0: return .some(nil)
        case 1: return read(&self).map { .some($0) }
        default: return nil
        }
    }
}
