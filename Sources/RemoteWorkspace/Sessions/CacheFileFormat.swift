import Foundation

/// The two files of a listing cache.
///
/// The index (`sessions.cache`): `RWSLIST6`, the index length and its checksum (little-endian
/// 64-bit), then the index (binary, ``CacheIndexCoding``): the generation of the byte file it
/// points into and every entry. Rewritten whole (it is small) through a temporary file and a rename.
///
/// The byte file (`sessions.bytes`): `RWSBYTES` and its generation (a random 64-bit number),
/// then the head and tail bytes of entries, only ever appended to; an entry keeps the offset of
/// its bytes. When most of it is bytes no entry points at any more, it is written anew with a
/// new generation (compacted), so an index of the old one no longer matches it.
///
/// Reading checks the magic, the lengths, the index checksum and the generation, and each
/// entry's bytes against their own checksum when they are used; anything that fails is treated
/// as not cached.
enum CacheFileFormat {
    static let magic = Array("RWSLIST6".utf8)
    static let bytesMagic = Array("RWSBYTES".utf8)
    private static let headerSize = 24
    /// The byte file's header: its magic and generation.
    static let bytesHeaderSize = 16

    /// The bytes one entry keeps: a window read now, or the stored bytes of an unchanged entry
    /// and where they are (their checksum is checked when they are used).
    enum EntryBytes {
        case window(FileWindow)
        case stored(Data, offset: Int, headLength: Int, tailLength: Int, hash: UInt64)
    }

    static func encodeIndex(_ entries: [CachedSession], generation: UInt64) -> Data {
        var writer = BinaryWriter()
        CacheIndexCoding.encode(entries, generation: generation, into: &writer)
        let indexData = Data(writer.bytes)
        var data = Data(magic)
        data.reserveCapacity(headerSize + indexData.count)
        append(UInt64(indexData.count), to: &data)
        append(CacheChecksum.of(indexData), to: &data)
        data.append(indexData)
        return data
    }

    /// The entries of an index and the generation of the byte file they point into.
    static func decodeIndex(_ data: Data) -> (generation: UInt64, entries: [CachedSession])? {
        guard data.count >= headerSize, data.prefix(magic.count).elementsEqual(magic) else { return nil }
        let length = Int(clamping: readUInt64(data, at: 8))
        let hash = readUInt64(data, at: 16)
        guard length >= 0, length <= data.count - headerSize else { return nil }
        let start = data.startIndex + headerSize
        let indexData = data[start..<(start + length)]
        guard CacheChecksum.of(indexData) == hash else { return nil }
        return indexData.withUnsafeBytes(CacheIndexCoding.decode)
    }

    /// The header of a byte file of `generation`.
    static func bytesHeader(generation: UInt64) -> [UInt8] {
        var header = Data(bytesMagic)
        append(generation, to: &header)
        return Array(header)
    }

    /// The generation a byte file's first bytes name; nil when they are not a header.
    static func generation(ofBytesHeader header: some Collection<UInt8>) -> UInt64? {
        let bytes = Data(header.prefix(bytesHeaderSize))
        guard bytes.count == bytesHeaderSize, bytes.prefix(bytesMagic.count).elementsEqual(bytesMagic) else { return nil }
        return readUInt64(bytes, at: 8)
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
