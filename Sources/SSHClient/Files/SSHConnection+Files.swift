/// Files on the remote box: listings, metadata, reads (whole, by range, streamed), atomic
/// writes, appends, directories and removal.
///
/// Paths are remote paths: absolute, `~` or `~/...` (the remote `$HOME`), or relative to the
/// remote home. The calls use SFTP when the server offers it and fall back to exec and POSIX tools
/// when it does not (``SSHConnectionConfiguration/fileTransport`` forces one or the other); the
/// results and errors are the same. File-level failures throw ``RemoteFileError`` and leave the
/// connection usable; connection failures throw ``SSHError``. SFTP work shares the connection
/// with running commands and shells.
extension SSHConnection {
    /// Lists a directory: every entry except `.` and `..`, sorted by name bytes, with `lstat`
    /// attributes (a symlink is reported as a symlink, never followed). On a slow link (a round
    /// trip of 50 ms or more) one command lists it where commands run, with the same entries.
    ///
    /// - Parameters:
    ///   - path: The directory on the box.
    ///   - includeSymlinkTargets: Also read where each symlink points (one more request per link over SFTP).
    /// - Throws: ``RemoteFileError/noSuchFile(path:)``, ``RemoteFileError/notADirectory(path:)``,
    ///   ``RemoteFileError/permissionDenied(path:)``. A file removed while the listing runs is left out.
    public func listDirectory(_ path: String, includeSymlinkTargets: Bool = false) async throws -> [RemoteFileEntry] {
        let listed = try await withFileBackend(path, idempotent: true, commandsOnASlowLink: true) { backend, remotePath in
            try await backend.list(remotePath, symlinkTargets: includeSymlinkTargets)
        }
        return listed.sorted { $0.name.lexicographicallyPrecedes($1.name) }.map { entry in
            let name = String(decoding: entry.name, as: UTF8.self)
            return RemoteFileEntry(
                name: name, path: RemotePath.join(path, name), attributes: entry.attributes,
                symlinkTarget: entry.target.map { String(decoding: $0, as: UTF8.self) })
        }
    }

    /// The metadata of one path.
    ///
    /// - Parameters:
    ///   - path: The path on the box.
    ///   - followSymlinks: Describe what a symlink points to instead of the link itself;
    ///     without it a symlink's entry carries its ``RemoteFileEntry/symlinkTarget``.
    public func stat(_ path: String, followSymlinks: Bool = false) async throws -> RemoteFileEntry {
        try await withFileBackend(path, idempotent: true) { backend, remotePath in
            let attributes = try await backend.stat(remotePath, followSymlinks: followSymlinks)
            let target = attributes.kind == .symlink ? try await backend.readLink(remotePath) : nil
            return RemoteFileEntry(
                name: RemotePath.split(path).name, path: path, attributes: attributes,
                symlinkTarget: target.map { String(decoding: $0, as: UTF8.self) })
        }
    }

    /// Reads a whole file, or the bytes of `range` in it (fewer when the file ends first).
    ///
    /// To read only what a growing file gained since last time, pass `offset..<UInt64.max` or use
    /// ``readFile(_:from:)``: nothing before `offset` is transferred.
    public func readFile(_ path: String, range: Range<UInt64>? = nil) async throws -> [UInt8] {
        try await withFileBackend(path, idempotent: true) { backend, remotePath in
            let length = range.flatMap { $0.upperBound == .max ? nil : $0.upperBound - $0.lowerBound }
            return try await backend.read(remotePath, offset: range?.lowerBound ?? 0, length: length)
        }
    }

    /// Reads a file from byte `offset` to its end.
    public func readFile(_ path: String, from offset: UInt64) async throws -> [UInt8] {
        try await readFile(path, range: offset..<UInt64.max)
    }

    /// Streams a file from `offset`, `length` bytes at most (to the end without it), in chunks as they arrive.
    ///
    /// - Parameters:
    ///   - path: The file on the box.
    ///   - offset: The first byte to read.
    ///   - length: The most bytes to read; nil reads to the end.
    ///   - bufferSize: How many unread bytes may wait before the transfer pauses.
    /// - Returns: A reader to iterate once; errors (a missing file, ...) are thrown by its iteration.
    public func streamFile(
        _ path: String, from offset: UInt64 = 0, length: UInt64? = nil,
        bufferSize: Int = 8 << 20
    ) async throws -> RemoteFileReader {
        try await withFileBackend(path, idempotent: true) { backend, remotePath in
            try await backend.stream(remotePath, offset: offset, length: length, bufferSize: bufferSize).naming(remotePath, as: path)
                .holding(self)
        }
    }

    /// Replaces (or creates) a file atomically: the bytes go to a temporary file in the same
    /// directory, which is then renamed over `path`, so a reader sees the old or the new content.
    ///
    /// - Parameters:
    ///   - path: The file on the box.
    ///   - contents: The file's new bytes.
    ///   - permissions: The new file's permission bits, set exactly (no umask).
    public func writeFile(_ path: String, contents: [UInt8], permissions: UInt32 = 0o644) async throws {
        try await withFileBackend(path) { backend, remotePath in
            try await backend.write(remotePath, contents: contents, permissions: permissions & 0o7777)
        }
    }

    /// Writes `contents` into `path` with no temporary (emptying it first unless `append`),
    /// creating it with mode 600 if missing; then gives it `finish`'s mode and time. For files
    /// inside a tree that is itself a temporary.
    func placeFile(_ path: String, contents: [UInt8], append: Bool = false, finish: PlacedFile? = nil) async throws {
        try await withFileBackend(path) { backend, remotePath in
            try await backend.place(remotePath, contents: contents, append: append, finish: finish)
        }
    }

    /// Appends bytes to a file, creating it (mode 0644 less the server's umask) if missing.
    public func appendFile(_ path: String, contents: [UInt8]) async throws {
        try await withFileBackend(path) { backend, remotePath in try await backend.append(remotePath, contents: contents) }
    }

    /// Creates a directory with exactly `permissions`.
    ///
    /// - Parameters:
    ///   - path: The directory to create on the box.
    ///   - withIntermediates: Also create missing parents, and accept an existing directory (as `mkdir -p`).
    ///   - permissions: The new directory's permission bits.
    public func makeDirectory(_ path: String, withIntermediates: Bool = false, permissions: UInt32 = 0o755) async throws {
        try await withFileBackend(path) { backend, remotePath in
            try await backend.makeDirectory(remotePath, intermediates: withIntermediates, permissions: permissions & 0o7777)
        }
    }

    /// Removes a file, a symlink (not what it points to) or an empty directory.
    ///
    /// - Throws: ``RemoteFileError/directoryNotEmpty(path:)`` for a directory with entries.
    public func remove(_ path: String) async throws {
        try await withFileBackend(path) { backend, remotePath in try await backend.remove(remotePath) }
    }

    /// Removes `path` and, for a directory, everything in it. Symlinks inside are removed, never
    /// followed, so nothing outside the tree is touched. The home directory and `/` are refused.
    public func removeRecursively(_ path: String) async throws {
        let normalized = try RemotePath.normalized(path)
        if ["/", "~", "~/"].contains(normalized) { throw SSHError.invalidArgument("refusing to remove \(path) recursively") }
        try await withFileBackend(path) { backend, remotePath in try await backend.removeRecursively(remotePath) }
    }

    /// The transport the file calls use on this connection: ``RemoteFileTransport/sftp`` or
    /// ``RemoteFileTransport/shell``. Under `.automatic` the first call decides (it may open SFTP).
    public func activeFileTransport() async throws -> RemoteFileTransport {
        switch try await fileBackend() {
        case .sftp: return .sftp
        case .shell: return .shell
        }
    }
}
