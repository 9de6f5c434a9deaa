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
    func makeDirectory(_ path: String, intermediates: Bool, permissions: UInt32) async throws
    func remove(_ path: String) async throws
    func removeRecursively(_ path: String) async throws
}

/// A name for a temporary file, unlikely to meet another writer's.
func temporaryFileName() -> String {
    ".rws-" + String(UInt64.random(in: 0...UInt64.max), radix: 16) + ".tmp"
}
