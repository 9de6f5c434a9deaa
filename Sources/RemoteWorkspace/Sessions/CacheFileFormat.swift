import Foundation

/// The bytes of a cache file: `RWSLIST1`, the index length and its checksum (little-endian
/// 64-bit), the index (JSON), then the head and tail bytes of every entry.
///
/// Reading checks the magic, the lengths and the index checksum, and each entry's bytes against
/// their own checksum when they are used; anything that fails is treated as not cached.
enum CacheFileFormat {
    static let magic = Array("RWSLIST1".utf8)
    private static let headerSize = 24

    private struct Index: Codable {
        var entries: [CachedSession]
    }

    static func encode(_ entries: [(CachedSession, FileWindow)]) -> Data {
        var bytes: [UInt8] = []
        var index: [CachedSession] = []
        for (entry, window) in entries {
            var entry = entry
            let stored = window.stored
            entry.bytesOffset = bytes.count
            entry.headLength = window.head.count
            entry.tailLength = window.tail.count
            entry.bytesHash = FNV1a.hash(stored)
            bytes += stored
            index.append(entry)
        }
        let indexData = (try? JSONEncoder().encode(Index(entries: index))) ?? Data()
        var data = Data(magic)
        append(UInt64(indexData.count), to: &data)
        append(FNV1a.hash(indexData), to: &data)
        data.append(indexData)
        data.append(contentsOf: bytes)
        return data
    }

    static func decode(_ data: Data) -> CacheContents? {
        guard data.count >= headerSize, data.prefix(magic.count).elementsEqual(magic) else { return nil }
        let length = Int(clamping: readUInt64(data, at: 8))
        let hash = readUInt64(data, at: 16)
        guard length >= 0, length <= data.count - headerSize else { return nil }
        let start = data.startIndex + headerSize
        let indexData = data[start..<(start + length)]
        guard FNV1a.hash(indexData) == hash, let index = try? JSONDecoder().decode(Index.self, from: indexData) else { return nil }
        var contents = CacheContents(bytes: data[(start + length)...])
        for entry in index.entries { contents.entries[entry.path] = entry }
        return contents
    }

    private static func append(_ value: UInt64, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    private static func readUInt64(_ data: Data, at offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(data[data.startIndex + offset + index]) << (8 * UInt64(index)) }
        return value
    }
}
