import Foundation
import Platform

extension SSHConnection {
    /// Bytes sent per write of an upload: the memory an upload holds, whatever the file's size.
    static let uploadChunk = 4 << 20
    /// Files of a tree up to this size move as one request each (`get -r`, `put -r`).
    static let wholeFileLimit: UInt64 = 4 << 20

    /// Copies a local file to `path` on the box in constant memory (over SFTP one handle with its
    /// writes pipelined throughout, a few MiB queued): the bytes go to a temporary beside the
    /// target (``partialTransferPath(for:)`` names it the same way), which then gets the local
    /// file's permission bits and modification time and is renamed over the target by one
    /// command (`chmod`, `touch -d @N`, `mv -f`), so the target is never a partial file.
    /// Finishing needs commands to run on the box.
    ///
    /// - Parameters:
    ///   - localPath: The file here.
    ///   - path: Where to put it on the box (its folder must exist).
    ///   - resume: Continue a temporary left on the box by an interrupted upload when its last
    ///     bytes (up to 64 KiB) equal the local file's at the same place; otherwise start over.
    ///   - progress: Called as bytes are sent.
    /// - Returns: The last progress.
    @discardableResult
    public func upload(
        _ localPath: String, to path: String, resume: Bool = false,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> TransferProgress {
        let local = try Self.localRegularFile(localPath)
        let partial = Self.partialTransferPath(for: path)
        var start: UInt64 = 0
        if resume { start = try await resumableUploadLength(of: partial, local: local.handle, total: local.size) }
        defer { try? local.handle.close() }
        var state = TransferProgress(bytes: start, total: local.size, transferred: 0)
        do {
            try local.handle.seek(toOffset: start)
        } catch {
            throw TransferError.localFile(path: localPath, reason: SystemCallError("seek", describing: error).reason)
        }
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let finish = PlacedFile(permissions: local.permissions, modified: local.modified)
        do {
            // The temporary is the only file a cut can leave; the next run replaces or resumes it.
            try await withFileBackend(partial) { backend, remotePartial in
                try await backend.stream(into: remotePartial, append: start > 0, finish: finish) { sink in
                    while state.bytes < local.size {
                        let chunk: [UInt8]
                        do throws(SystemCallError) {
                            chunk = try Self.readChunk(local.handle.fileDescriptor)
                        } catch {
                            throw TransferError.localFile(path: localPath, reason: error.reason)
                        }
                        if chunk.isEmpty { break }
                        try await sink.push(chunk)
                        state.bytes += UInt64(chunk.count)
                        state.transferred += UInt64(chunk.count)
                        progress?(state)
                    }
                }
            }
        } catch RemoteFileError.noSuchFile {
            throw RemoteFileError.noSuchFile(path: folder)
        } catch RemoteFileError.permissionDenied {
            throw RemoteFileError.permissionDenied(path: folder)  // the folder, not the temporary the user never named
        } catch let error as RemoteFileError {
            throw try await writeFailure(error, removing: partial, of: path, needing: Self.uploadChunk)
        }
        _ = try await ShellFileScripts.finishUpload.run(
            on: self, [.path(partial), .path(path), .word(String(local.permissions, radix: 8)), .word(String(local.modified))],
            timeout: nil, failure: ShellFileErrors.failure(operation: "finishing the upload of", path: path))
        return state
    }

    /// Up to ``uploadChunk`` bytes read straight into the array (no zeroing, no `Data` between).
    private static func readChunk(_ fd: Int32) throws(SystemCallError) -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: uploadChunk) { (buffer, count) throws(SystemCallError) in
            count = 0
            while count < buffer.count {
                let rest = UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[count...])
                guard let read = try SystemCall.read(fd, into: rest), read > 0 else { return }
                count += read
            }
        }
    }

    /// What a failed write of `path` (into `written`) says: SFTP reports a full disk only as
    /// "failure", so the box's `df` tells; when full, `written` is removed and the error is ``TransferError/noSpace(path:onBox:)``.
    func writeFailure(_ error: RemoteFileError, removing written: String, of path: String, needing bytes: Int) async throws -> any Error {
        guard try await isFull(RemotePath.split(path).parent, needing: bytes + (1 << 20)) else { return error }
        try? await remove(written)
        return TransferError.noSpace(path: path, onBox: true)
    }

    /// Whether the box's disk holding `directory` has less than `bytes` free (false when `df` cannot tell).
    func isFull(_ directory: String, needing bytes: Int) async throws -> Bool {
        let result = try await ShellFileScripts.freeSpace.result(on: self, [.path(directory)], timeout: nil)
        guard let kilobytes = Int(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) else { return false }
        return kilobytes * 1024 < bytes
    }

    /// The local file opened for reading with its size, permission bits and modification time.
    private static func localRegularFile(
        _ localPath: String
    ) throws -> (handle: FileHandle, size: UInt64, permissions: UInt32, modified: Int) {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: localPath)
        } catch {
            throw TransferError.localFile(path: localPath, reason: SystemCallError("stat", describing: error).reason)
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { throw TransferError.notARegularFile(path: localPath) }
        guard let handle = FileHandle(forReadingAtPath: localPath) else {
            throw TransferError.localFile(path: localPath, reason: "it cannot be opened for reading")
        }
        return (
            handle, (attributes[.size] as? NSNumber)?.uint64Value ?? 0,
            UInt32((attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0o644),
            Int(((attributes[.modificationDate] as? Date) ?? Date()).timeIntervalSince1970)
        )
    }

    /// How much of a temporary on the box can be kept: its length when its last bytes match.
    private func resumableUploadLength(of partial: String, local: FileHandle, total: UInt64) async throws -> UInt64 {
        guard let there = try? await stat(partial), there.kind == .file, there.size > 0, there.size <= total else { return 0 }
        let checked = min(there.size, 65_536)
        let remote = try await readFile(partial, range: (there.size - checked)..<there.size)
        try? local.seek(toOffset: there.size - checked)
        let bytes = (try? local.read(upToCount: Int(checked))).map { [UInt8]($0) } ?? []
        return bytes == remote ? there.size : 0
    }
}
