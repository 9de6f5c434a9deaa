import Foundation
import Platform

extension SessionListingCache {
    /// Stores `entries`: the bytes of windows read now are appended to the byte file, unchanged
    /// entries keep where their bytes are, and the index is replaced atomically, one process at a
    /// time (`sessions.lock`). The byte file is
    /// written anew (compacted) when it is missing or foreign, when an append was torn, or when
    /// less of it is in use than not.
    func save(_ entries: [(CachedSession, CacheFileFormat.EntryBytes)], loadedGeneration: UInt64?) throws {
        let folder = fileURL.deletingLastPathComponent()
        do {
            try SystemCall.makeDirectories(folder.path, mode: 0o700)
        } catch {
            throw RemoteSessionError.cacheUnwritable(path: folder.path, reason: error.reason)
        }
        do throws(SystemCallError) {
            // rws processes listing at once take turns, so the index written last always names the
            // byte file left last. One that waited longer than any save takes saves as before: its
            // index may then name a byte file another compacted, which is listed again, never misread.
            let turn = try FileLock(path: lockURL.path, mode: 0o600, waitingUpTo: .seconds(5))
            if let (index, generation) = try appended(entries, loadedGeneration: loadedGeneration) {
                try replace(fileURL, with: CacheFileFormat.encodeIndex(index, generation: generation))
            } else {
                let (index, generation) = try compacted(entries)
                try replace(fileURL, with: CacheFileFormat.encodeIndex(index, generation: generation))
            }
            turn.release()
        } catch {
            throw RemoteSessionError.cacheUnwritable(path: fileURL.path, reason: error.reason)
        }
    }

    /// Appends what is new; nil when the byte file has to be written anew instead.
    private func appended(
        _ entries: [(CachedSession, CacheFileFormat.EntryBytes)], loadedGeneration: UInt64?
    ) throws(SystemCallError) -> (index: [CachedSession], generation: UInt64)? {
        let file = try AppendingFile(path: bytesURL.path, mode: 0o600)
        guard try file.size() >= CacheFileFormat.bytesHeaderSize,
            let generation = CacheFileFormat.generation(ofBytesHeader: try file.read(at: 0, count: CacheFileFormat.bytesHeaderSize))
        else { return nil }
        // Offsets of another generation (the file was compacted meanwhile) point at nothing here.
        let keepsOffsets = generation == loadedGeneration
        var index: [CachedSession] = []
        var pending: [UInt8] = []
        var pendingEntries: [(index: Int, at: Int)] = []
        var live = 0
        for (entry, bytes) in entries {
            var entry = entry
            if case .stored(let stored, let offset, let headLength, let tailLength, let hash) = bytes, keepsOffsets {
                (entry.bytesOffset, entry.headLength, entry.tailLength, entry.bytesHash) = (offset, headLength, tailLength, hash)
                live += stored.count
            } else {
                pendingEntries.append((index.count, pending.count))
                let before = pending.count
                Self.append(bytes, of: &entry, to: &pending)
                live += pending.count - before
            }
            index.append(entry)
        }
        guard let start = try file.append(pending) else { return nil }
        for (position, at) in pendingEntries { index[position].bytesOffset = start + at }
        let unused = try file.size() - CacheFileFormat.bytesHeaderSize - live
        guard unused <= max(live, compactionFloor) else { return nil }
        return (index, generation)
    }

    /// Writes the byte file anew with a new generation: the header, then every entry's bytes,
    /// ``compactionPiece`` bytes at a time.
    private func compacted(
        _ entries: [(CachedSession, CacheFileFormat.EntryBytes)]
    ) throws(SystemCallError) -> (index: [CachedSession], generation: UInt64) {
        let generation = UInt64.random(in: 1...UInt64.max)
        var file = try ReplacingFile(path: bytesURL.path)
        var pending = CacheFileFormat.bytesHeader(generation: generation)
        pending.reserveCapacity(compactionPiece * 2)
        var written = 0
        var index: [CachedSession] = []
        index.reserveCapacity(entries.count)
        for (entry, bytes) in entries {
            var entry = entry
            entry.bytesOffset = written + pending.count
            Self.append(bytes, of: &entry, to: &pending)
            index.append(entry)
            if pending.count >= compactionPiece {
                try file.write(pending)
                written += pending.count
                pending.removeAll(keepingCapacity: true)
            }
        }
        try file.write(pending)
        try file.commit()
        return (index, generation)
    }

    /// Appends an entry's bytes to `buffer` (copied once), with its lengths and checksum set from them.
    private static func append(
        _ bytes: CacheFileFormat.EntryBytes, of entry: inout CachedSession, to buffer: inout some RangeReplaceableCollection<UInt8>
    ) {
        switch bytes {
        case .window(let window):
            let checksum = window.appendStored(to: &buffer)
            (entry.headLength, entry.tailLength, entry.bytesHash) = (window.head.count, window.tail.count, checksum)
        case .stored(let stored, _, let headLength, let tailLength, let hash):
            buffer.append(contentsOf: stored)
            (entry.headLength, entry.tailLength, entry.bytesHash) = (headLength, tailLength, hash)
        }
    }

    /// Replaces `url` atomically (``SystemCall/replaceFile(_:contents:)``).
    private func replace(_ url: URL, with data: Data) throws(SystemCallError) {
        try SystemCall.replaceFile(url.path, contents: data)
    }
}
