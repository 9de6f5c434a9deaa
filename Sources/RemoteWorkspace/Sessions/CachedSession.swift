import CZlib
import SessionHistory

/// What the cache keeps for one session file (or root `agent-*.jsonl`): the key it is valid
/// for, its summary, and where its first and last bytes sit in the cache's byte area.
struct CachedSession: Sendable, Equatable {
    /// The full remote path (`~/.claude/projects/<folder>/<id>.jsonl`).
    var path: String
    /// `<device>_<inode>`, size and mtime when the bytes were read: the cache key.
    var identity: String
    var size: Int
    var mtime: Int
    /// The summary, computed with the project's summaries-by-leaf whose digest is `leafMapDigest`.
    var summary: SessionSummary
    var leafMapDigest: UInt64
    /// The `summary` records in this file's head, by `leafUuid` (titles for other files).
    var leafSummaries: [String: String]
    /// For an `agent-*.jsonl` beside the sessions: the session its records name.
    var parentSessionId: String?
    /// Where the head and tail bytes sit in the byte area, and a checksum of them.
    var bytesOffset: Int
    var headLength: Int
    var tailLength: Int
    var bytesHash: UInt64
    /// Its message lines (``SessionSummary/messageCount``), counted on the box.
    var messageCount: Int?
}

/// A file's first and last bytes, as far as they were read.
struct FileWindow: Sendable, Equatable {
    var size: Int
    /// Bytes `0..<head.count`.
    var head: [UInt8]
    /// Bytes `size - tail.count ..< size`.
    var tail: [UInt8]

    /// How many bytes the stored form holds: head and tail one after the other, a tail inside the
    /// head not stored twice.
    var storedCount: Int { tailInsideHead ? head.count : head.count + tail.count }

    /// Appends the stored form to `buffer`; returns its ``CacheChecksum``.
    func appendStored(to buffer: inout some RangeReplaceableCollection<UInt8>) -> UInt64 {
        buffer.append(contentsOf: head)
        guard !tailInsideHead else { return CacheChecksum.of(head) }
        buffer.append(contentsOf: tail)
        return CacheChecksum.of(tail, continuing: CacheChecksum.of(head))
    }

    private var tailInsideHead: Bool { head.count == size && tail.count <= head.count }

    init(size: Int, head: [UInt8], tail: [UInt8]) {
        self.size = size
        self.head = head
        self.tail = tail
    }

    /// Rebuilds a window from its stored form.
    init?(size: Int, stored: ArraySlice<UInt8>, headLength: Int, tailLength: Int) {
        guard headLength <= stored.count else { return nil }
        head = Array(stored.prefix(headLength))
        if headLength == size, stored.count == headLength {
            tail = Array(head.suffix(tailLength))
        } else {
            guard stored.count == headLength + tailLength else { return nil }
            tail = Array(stored.suffix(tailLength))
        }
        self.size = size
    }
}

/// The cache's checksum of its index and of each entry's bytes, to tell a damaged cache from a
/// good one: zlib's CRC-32 (four to five times faster here than byte-wise FNV-1a, which the
/// cold listing of 1 GB spent 46 ms on).
enum CacheChecksum {
    static func of(_ bytes: some Collection<UInt8>, continuing previous: UInt64 = 0) -> UInt64 {
        if let sum = bytes.withContiguousStorageIfAvailable({ of(buffer: $0, continuing: previous) }) { return sum }
        return Array(bytes).withUnsafeBufferPointer { of(buffer: $0, continuing: previous) }
    }

    private static func of(buffer: UnsafeBufferPointer<UInt8>, continuing previous: UInt64) -> UInt64 {
        var sum = UInt(previous)
        var rest = buffer[...]
        // zlib takes at most 4 GiB a call.
        while !rest.isEmpty {
            let piece = rest.prefix(1 << 30)
            sum = crc32(sum, UnsafeBufferPointer(rebasing: piece).baseAddress, UInt32(piece.count))
            rest = rest.dropFirst(piece.count)
        }
        return UInt64(sum)
    }
}

/// FNV-1a, 64 bits: a stable hash for names (the cache folder of a host, a leaf map's digest).
enum FNV1a {
    static func hash(_ bytes: some Collection<UInt8>) -> UInt64 {
        if let hash = bytes.withContiguousStorageIfAvailable({ hash(buffer: $0) }) { return hash }
        return Array(bytes).withUnsafeBufferPointer { hash(buffer: $0) }
    }

    private static func hash(buffer: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in buffer {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
