import Foundation
import Platform

/// How far a transfer has come.
public struct TransferProgress: Sendable, Equatable {
    /// Bytes of the file in place so far (with `--resume`, counting the part already there).
    public var bytes: UInt64
    /// The file's size.
    public var total: UInt64
    /// Bytes that crossed the link in this transfer.
    public var transferred: UInt64

    /// A progress report.
    public init(bytes: UInt64, total: UInt64, transferred: UInt64) {
        self.bytes = bytes
        self.total = total
        self.transferred = transferred
    }
}

/// A local failure of a transfer, in rws's words.
public enum TransferError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path (on the box for a download, here for an upload) is a directory or another non-file.
    case notARegularFile(path: String)
    /// A directory copy was asked for a path that is not a directory.
    case notADirectory(path: String)
    /// A directory was to be copied without asking for its contents.
    case isADirectory(path: String)
    /// The directory to create is there already.
    case targetExists(path: String)
    /// The local file or its temporary could not be written.
    case localFile(path: String, reason: String)
    /// The disk (here, or on the box with `onBox`) filled up while `path` was written; the
    /// temporary was removed.
    case noSpace(path: String, onBox: Bool)

    /// One line saying what failed and what to do.
    public var description: String {
        switch self {
        case .notARegularFile(let path):
            return "\(path) is not a regular file or directory"
        case .notADirectory(let path):
            return "\(path) is not a directory"
        case .isADirectory(let path):
            return "\(path) is a directory: add -r to copy it and everything in it"
        case .targetExists(let path):
            return "\(path) exists already: remove it or give another name; nothing was copied"
        case .localFile(let path, let reason):
            return "cannot write \(path) here: \(reason); check that its folder exists and is writable"
        case .noSpace(let path, let onBox):
            let place = onBox ? "on the box" : "on this machine"
            return "no space left \(place) for \(path): free some space \(place) (df -h shows where) and copy again; nothing was kept"
        }
    }
}

extension SSHConnection {
    /// The temporary a transfer writes before renaming it over the target: beside it, so the
    /// rename stays in one file system, and so `resume` finds it after an interrupted run.
    /// Works on the path's text, so a remote `~/x` stays `~/.x.rws-part`.
    public static func partialTransferPath(for path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." + path + ".rws-part" }
        return String(path[...slash]) + "." + path[path.index(after: slash)...] + ".rws-part"
    }

    /// Copies a remote file to `localPath`, streaming (constant memory): the bytes go to a
    /// temporary beside the target (``partialTransferPath(for:)``), which gets the remote file's
    /// permission bits and modification time and is then renamed over the target, so the
    /// target is never a partial file.
    ///
    /// - Parameters:
    ///   - path: The file on the box (symbolic links followed).
    ///   - localPath: Where to put it here.
    ///   - resume: Continue a temporary left by an interrupted download when its last bytes
    ///     (up to 64 KiB) equal the remote file's at the same place; otherwise start over.
    ///   - progress: Called as bytes arrive.
    /// - Returns: The last progress (bytes in place, total, bytes moved this time).
    @discardableResult
    public func download(
        _ path: String, to localPath: String, resume: Bool = false,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> TransferProgress {
        let remote = try await stat(path, followSymlinks: true)
        if remote.kind == .directory { throw TransferError.isADirectory(path: path) }
        guard remote.kind == .file else { throw TransferError.notARegularFile(path: path) }
        let total = remote.size
        let partial = Self.partialTransferPath(for: localPath)
        var start: UInt64 = 0
        if resume { start = try await resumableLength(of: partial, remote: path, total: total) }
        let handle = try Self.openPartial(partial, keeping: start, localPath: localPath)
        var state = TransferProgress(bytes: start, total: total, transferred: 0)
        do {
            defer { try? handle.close() }
            if start < total {
                for try await chunk in try await streamFile(path, from: start, length: total - start) {
                    do throws(SystemCallError) { try SystemCall.writeAll(handle.fileDescriptor, chunk) } catch let failure {
                        guard failure.code == ENOSPC || failure.code == EDQUOT else {
                            throw TransferError.localFile(path: localPath, reason: failure.reason)
                        }
                        // A partial that fills the disk is no use to --resume.
                        unlink(partial)
                        throw TransferError.noSpace(path: localPath, onBox: false)
                    }
                    state.bytes += UInt64(chunk.count)
                    state.transferred += UInt64(chunk.count)
                    progress?(state)
                }
            }
        } catch {
            // An empty temporary (a file that cannot be read, a link lost at once) is no use to --resume.
            if state.bytes == 0 { unlink(partial) }
            throw error
        }
        try Self.finish(partial, as: localPath, permissions: remote.attributes.permissions, modified: remote.attributes.modificationTime)
        progress?(state)
        return state
    }

    /// How much of an existing temporary can be kept: its length when its last bytes match.
    private func resumableLength(of partial: String, remote path: String, total: UInt64) async throws -> UInt64 {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: partial),
            let size = (attributes[.size] as? NSNumber)?.uint64Value, size > 0, size <= total
        else { return 0 }
        let checked = min(size, 65_536)
        guard let handle = FileHandle(forReadingAtPath: partial) else { return 0 }
        defer { try? handle.close() }
        try? handle.seek(toOffset: size - checked)
        let local = (try? handle.read(upToCount: Int(checked))).map { [UInt8]($0) } ?? []
        let there = try await readFile(path, range: (size - checked)..<size)
        return local == there ? size : 0
    }

    /// Opens the temporary for writing, cut to `keeping` bytes, positioned at its end.
    private static func openPartial(_ partial: String, keeping: UInt64, localPath: String) throws -> FileHandle {
        if keeping == 0 {
            guard FileManager.default.createFile(atPath: partial, contents: nil) else {
                throw TransferError.localFile(path: localPath, reason: reason(creating: partial))
            }
        }
        do {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: partial))
            try handle.truncate(atOffset: keeping)
            try handle.seekToEnd()
            return handle
        } catch {
            throw TransferError.localFile(path: localPath, reason: SystemCallError("open", describing: error).reason)
        }
    }

    /// Why a file cannot be created: the folder is missing, or not writable.
    private static func reason(creating path: String) -> String {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            return "the folder \(folder) does not exist"
        }
        return FileManager.default.isWritableFile(atPath: folder) ? "it cannot be created" : "the folder \(folder) is not writable"
    }

    /// Gives the temporary the remote file's mode and time, then renames it over the target.
    private static func finish(_ partial: String, as localPath: String, permissions: UInt32, modified: Date) throws {
        do {
            try FileManager.default.setAttributes(
                [.posixPermissions: NSNumber(value: permissions & 0o7777), .modificationDate: modified], ofItemAtPath: partial)
            // rename(2) replaces an existing target in one step.
            guard rename(partial, localPath) == 0 else { throw SystemCallError("rename") }
        } catch let error as SystemCallError {
            throw TransferError.localFile(path: localPath, reason: error.reason)
        } catch {
            throw TransferError.localFile(path: localPath, reason: SystemCallError("rename", describing: error).reason)
        }
    }
}
