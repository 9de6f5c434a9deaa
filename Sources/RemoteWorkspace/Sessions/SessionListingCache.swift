import Foundation
import Platform
import SSHClient

/// The local cache of session listings for one box, so that listing again costs almost nothing.
///
/// It keeps, for every session file, its key (path, size, mtime, device and inode), its summary
/// and its first and last bytes. An unchanged file is not read again; a grown one is read from
/// its old size only. The file lives under the user's cache folder, one per host:
/// `$XDG_CACHE_HOME/rws/<user@host-port>-<hash>/sessions.cache` (`~/.cache` without
/// `XDG_CACHE_HOME`), and `sessions.bytes` beside it.
///
/// It is two files: a small index, written to a temporary file renamed over
/// the old one, and the bytes, only appended to, so that a listing that read a few files writes
/// only their bytes. A reader never sees half an index, and rws processes listing at once take
/// turns writing (`sessions.lock`), leaving one complete cache (the last index written). A file that is damaged, truncated or of
/// another version is ignored and rebuilt.
public struct SessionListingCache: Sendable {
    /// The cache file.
    public let fileURL: URL
    /// Unused bytes the byte file may hold beyond as many as are in use before it is compacted.
    package var compactionFloor = 1 << 22
    /// How many bytes a compaction gathers before writing them: a cold listing of 4 GB stores
    /// ~160 MB, never held whole.
    package var compactionPiece = 1 << 20

    /// A cache stored in `fileURL`.
    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// The cache for the box a connection goes to, under the user's cache folder.
    public init(for configuration: SSHConnectionConfiguration, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(
            fileURL: Self.location(host: configuration.host, port: configuration.port, user: configuration.user, environment: environment))
    }

    /// Where the cache of `user@host:port` lives.
    public static func location(host: String, port: Int, user: String, environment: [String: String]) -> URL {
        let identity = "\(user)@\(host):\(port)"
        let readable = String(identity.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "@" ? $0 : "-" }.prefix(80))
        let hash = String(FNV1a.hash(Array(identity.utf8)), radix: 16)
        return cacheRoot(environment).appendingPathComponent("rws").appendingPathComponent("\(readable)-\(hash)")
            .appendingPathComponent("sessions.cache")
    }

    private static func cacheRoot(_ environment: [String: String]) -> URL {
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return URL(fileURLWithPath: xdg) }
        return home.appendingPathComponent(".cache")
    }

    /// The byte file beside the index (`sessions.bytes`).
    var bytesURL: URL { fileURL.deletingPathExtension().appendingPathExtension("bytes") }
    /// The lock file beside the index (`sessions.lock`), held while the cache is written.
    var lockURL: URL { fileURL.deletingPathExtension().appendingPathExtension("lock") }

    /// The cached entries; empty when there is no cache or it cannot be trusted.
    func load() -> CacheContents {
        guard let indexData = try? Data(contentsOf: fileURL), let (generation, entries) = CacheFileFormat.decodeIndex(indexData),
            let bytes = try? Data(contentsOf: bytesURL, options: .alwaysMapped),
            CacheFileFormat.generation(ofBytesHeader: bytes) == generation
        else { return CacheContents() }
        var contents = CacheContents(bytes: bytes, generation: generation)
        for entry in entries { contents.entries[entry.path] = entry }
        return contents
    }
}

/// The entries of a loaded cache, with their bytes read on demand.
struct CacheContents: Sendable {
    var entries: [String: CachedSession] = [:]
    /// The byte file, header included: entries' offsets count from its start.
    var bytes = Data()
    /// The byte file's generation; nil without a cache.
    var generation: UInt64?

    /// The first and last bytes kept for `entry`; nil when they fail their checksum.
    func window(for entry: CachedSession) -> FileWindow? {
        guard let stored = storedBytes(for: entry), CacheChecksum.of(stored) == entry.bytesHash else { return nil }
        return FileWindow(size: entry.size, stored: [UInt8](stored)[...], headLength: entry.headLength, tailLength: entry.tailLength)
    }

    /// The bytes kept for `entry` as stored, unchecked: to carry an unchanged entry into the next cache file.
    func storedBytes(for entry: CachedSession) -> Data? {
        let end = entry.bytesOffset + entry.headLength + (entry.headLength == entry.size ? 0 : entry.tailLength)
        guard entry.bytesOffset >= CacheFileFormat.bytesHeaderSize, end <= bytes.count else { return nil }
        return bytes[(bytes.startIndex + entry.bytesOffset)..<(bytes.startIndex + end)]
    }

    /// What an unchanged entry carries into the next cache file.
    func entryBytes(for entry: CachedSession) -> CacheFileFormat.EntryBytes? {
        storedBytes(for: entry).map {
            .stored($0, offset: entry.bytesOffset, headLength: entry.headLength, tailLength: entry.tailLength, hash: entry.bytesHash)
        }
    }
}
