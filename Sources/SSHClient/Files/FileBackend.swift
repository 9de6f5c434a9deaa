/// One directory entry as a transport lists it: the name's bytes, `lstat` attributes, and the
/// link target's bytes when asked for.
struct ListedEntry {
    var name: [UInt8]
    var attributes: RemoteFileAttributes
    var target: [UInt8]?
}

/// The file operations as a transport (SFTP or the shell fallback) implements them.
///
/// Paths arrive normalized (``RemotePath/normalized(_:)``): absolute or starting with `~`.
/// Both throw ``RemoteFileError`` for file-level failures and ``SSHError`` for the connection.
protocol FileBackend: Sendable {
    func list(_ path: String, symlinkTargets: Bool) async throws -> [ListedEntry]
    func stat(_ path: String, followSymlinks: Bool) async throws -> RemoteFileAttributes
    func readLink(_ path: String) async throws -> [UInt8]
    func read(_ path: String, offset: UInt64, length: UInt64?) async throws -> [UInt8]
    func stream(_ path: String, offset: UInt64, length: UInt64?, bufferSize: Int) async throws -> RemoteFileReader
    func write(_ path: String, contents: [UInt8], permissions: UInt32) async throws
    func append(_ path: String, contents: [UInt8]) async throws
    /// Writes `contents` at the end of `path` (after emptying it unless `append`), creating it
    /// with mode 600 when missing, with no temporary; then gives it `finish`'s mode and time.
    func place(_ path: String, contents: [UInt8], append: Bool, finish: PlacedFile?) async throws
    /// Writes what `produce` pushes into `path` in place, as ``place(_:contents:append:finish:)``
    /// does with one buffer: SFTP keeps one handle open and its writes in flight throughout.
    func stream(into path: String, append: Bool, finish: PlacedFile?, _ produce: (any UploadSink) async throws -> Void) async throws
    func makeDirectory(_ path: String, intermediates: Bool, permissions: UInt32) async throws
    func remove(_ path: String) async throws
    func removeRecursively(_ path: String) async throws
}

/// Where an upload's chunks go, in order.
protocol UploadSink: Sendable {
    /// Hands a chunk over, waiting while the chunks in flight fill the sink.
    func push(_ chunk: [UInt8]) async throws
}

/// The permission bits and modification time a placed file gets once written.
struct PlacedFile: Sendable {
    var permissions: UInt32
    /// Seconds since 1970.
    var modified: Int
}

/// A name for a temporary file, unlikely to meet another writer's.
func temporaryFileName() -> String {
    ".rws-" + String(UInt64.random(in: 0...UInt64.max), radix: 16) + ".tmp"
}
