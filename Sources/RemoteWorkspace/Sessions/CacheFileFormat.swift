import Foundation

/// The bytes of a cache file: `RWSLIST3`, the index length and its checksum (little-endian
/// 64-bit), the index (JSON), then the head and tail bytes of every entry.
///
/// Reading checks the magic, the lengths and the index checksum, and each entry's bytes against
/// their own checksum when they are used; anything that fails is treated as not cached.
enum CacheFileFormat {
    static let magic = Array("RWSLIST3".utf8)
    private static let headerSize = 24

    private struct Index: Codable {
        var entries: [CachedSession]
    }

    /// The bytes one entry keeps: a window read now, or the stored bytes of an unchanged entry,
    /// copied as they are (their checksum is checked when they are used).
    enum EntryBytes {
        case window(FileWindow)
        case stored(Data, headLength: Int, tailLength: Int, hash: UInt64)
    }

    static func encode(_ entries: [(CachedSession, EntryBytes)]) -> Data {
        var index: [CachedSession] = []
        var offset = 0
        var blobs: [Data] = []
        for (entry, bytes) in entries {
            var entry = entry
            let blob: Data
            switch bytes {
            case .window(let window):
                blob = Data(window.stored)
                (entry.headLength, entry.tailLength, entry.bytesHash) = (window.head.count, window.tail.count, FNV1a.hash(blob))
            case .stored(let stored, let headLength, let tailLength, let hash):
                blob = stored
                (entry.headLength, entry.tailLength, entry.bytesHash) = (headLength, tailLength, hash)
            }
            entry.bytesOffset = offset
            offset += blob.count
            blobs.append(blob)
            index.append(entry)
        }
        let indexData = (try? JSONEncoder().encode(Index(entries: index))) ?? Data()
        var data = Data(magic)
        data.reserveCapacity(headerSize + indexData.count + offset)
        append(UInt64(indexData.count), to: &data)
        append(FNV1a.hash(indexData), to: &data)
        data.append(indexData)
        for blob in blobs { data.append(blob) }
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
