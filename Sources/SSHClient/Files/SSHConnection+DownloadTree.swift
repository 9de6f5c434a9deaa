import Foundation
import Platform

extension SSHConnection {
    /// Copies a remote directory and everything in it to `localPath`, which must not exist:
    /// files stream in constant memory (as ``download(_:to:resume:progress:)`` does), symbolic
    /// links are recreated as links (never followed), permission bits and modification times are
    /// kept, and other kinds (FIFOs, sockets, devices) are skipped. The tree is built in a
    /// temporary beside the target (``partialTransferPath(for:)``) and renamed at the end, so
    /// `localPath` never holds a partial tree.
    ///
    /// - Parameters:
    ///   - path: The directory on the box (a symbolic link to one is followed).
    ///   - localPath: The directory to create here.
    ///   - resume: Continue the temporary of an interrupted copy: files already there with the
    ///     remote size and time are kept, a partial file is continued as a download resumes;
    ///     otherwise such a temporary is removed first.
    ///   - progress: Called as bytes arrive; `total` counts every file of the tree.
    /// - Returns: The last progress.
    /// - Throws: ``TransferError/targetExists(path:)``, ``TransferError/notADirectory(path:)``
    ///   when `path` is not a directory, ``TransferError/localFile(path:reason:)``, the errors
    ///   of listing and reading on the box, and `CancellationError` when the task is cancelled
    ///   (between folders listed and files copied; the temporary stays for `resume`).
    @discardableResult
    public func downloadDirectory(
        _ path: String, to localPath: String, resume: Bool = false, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> TransferProgress {
        let root = try await stat(path, followSymlinks: true)
        guard root.kind == .directory else { throw TransferError.notADirectory(path: path) }
        guard !SystemCall.exists(localPath), !Self.isSymlink(localPath) else {
            throw TransferError.targetExists(path: localPath)
        }
        let partial = Self.partialTransferPath(for: localPath)
        if !resume || !SystemCall.isDirectory(partial) { try Self.removeLocalTree(partial, for: localPath) }
        var tree: [TreeEntry] = []
        try await collect(path, relative: "", into: &tree)
        let total = tree.reduce(UInt64(0)) { $0 + ($1.entry.kind == .file ? $1.entry.size : 0) }
        let counter = TreeProgress(total: total, report: progress)
        try Self.makeLocalDirectory(partial, for: localPath)
        for item in tree {
            // Between files, where a cancelled copy stops cleanly (the temporary stays for `resume`).
            try Task.checkCancellation()
            let here = partial + "/" + item.relative
            switch item.entry.kind {
            case .directory:
                if !SystemCall.isDirectory(here) { try Self.makeLocalDirectory(here, for: localPath) }
            case .file:
                try await copyFile(item.entry, to: here, resume: resume, counter: counter)
            case .symlink:
                try Self.makeLink(here, to: item.entry.symlinkTarget ?? "", for: localPath)
            default:
                continue
            }
        }
        // Directories last, deepest first: writing their contents changed their times.
        for item in ([TreeEntry(relative: "", entry: root)] + tree).reversed() where item.entry.kind == .directory {
            try Self.setAttributes(of: item.relative.isEmpty ? partial : partial + "/" + item.relative, from: item.entry, for: localPath)
        }
        guard rename(partial, localPath) == 0 else {
            throw TransferError.localFile(path: localPath, reason: SystemCallError("rename").reason)
        }
        return counter.snapshot
    }

    private struct TreeEntry {
        var relative: String
        var entry: RemoteFileEntry
    }

    /// Every entry under `path`, parents before their contents.
    private func collect(_ path: String, relative: String, into tree: inout [TreeEntry]) async throws {
        try Task.checkCancellation()
        for entry in try await listDirectory(path, includeSymlinkTargets: true) {
            let name = relative.isEmpty ? entry.name : relative + "/" + entry.name
            tree.append(TreeEntry(relative: name, entry: entry))
            if entry.kind == .directory { try await collect(entry.path, relative: name, into: &tree) }
        }
    }

    /// One file of the tree; kept when a resumed copy has it already with the same size and time.
    private func copyFile(_ entry: RemoteFileEntry, to here: String, resume: Bool, counter: TreeProgress) async throws {
        if resume, let attributes = try? FileManager.default.attributesOfItem(atPath: here),
            (attributes[.size] as? NSNumber)?.uint64Value == entry.size,
            (attributes[.modificationDate] as? Date).map({ Int($0.timeIntervalSince1970) })
                == Int(entry.attributes.modificationTime.timeIntervalSince1970)
        {
            counter.add(done: entry.size, moved: 0)
            return
        }
        if entry.size <= Self.wholeFileLimit, !(resume && SystemCall.exists(Self.partialTransferPath(for: here))) {
            // One read into memory (no stat, no stream), written straight into the tree, which is a temporary itself.
            let slack: UInt64 = 1  // one byte more than listed: a file that grew since goes as a stream
            let bytes = try await readFile(entry.path, range: 0..<(entry.size + slack))
            if bytes.count < entry.size + slack {
                try Self.writeLocal(bytes, to: here, from: entry)
                counter.add(done: UInt64(bytes.count), moved: UInt64(bytes.count))
                return
            }
        }
        let before = counter.snapshot
        let last = try await download(entry.path, to: here, resume: resume) { file in counter.file(file, after: before) }
        counter.file(last, after: before)
    }

    /// Writes a whole small file of the tree with the remote entry's mode and time.
    private static func writeLocal(_ bytes: [UInt8], to here: String, from entry: RemoteFileEntry) throws {
        do throws(SystemCallError) {
            try SystemCall.writeFile(
                here, contents: bytes, mode: mode_t(entry.attributes.permissions & 0o7777),
                modified: Int(entry.attributes.modificationTime.timeIntervalSince1970))
        } catch {
            if error.code == ENOSPC || error.code == EDQUOT {
                unlink(here)
                throw TransferError.noSpace(path: here, onBox: false)
            }
            throw TransferError.localFile(path: here, reason: error.reason)
        }
    }

    private static func isSymlink(_ path: String) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
    }

    /// Removes a temporary tree left by an interrupted copy (never following links out of it).
    private static func removeLocalTree(_ partial: String, for localPath: String) throws {
        guard SystemCall.exists(partial) || isSymlink(partial) else { return }
        do {
            try FileManager.default.removeItem(atPath: partial)
        } catch {
            throw TransferError.localFile(path: localPath, reason: SystemCallError("remove", describing: error).reason)
        }
    }

    private static func makeLocalDirectory(_ path: String, for localPath: String) throws {
        do {
            try SystemCall.makeDirectories(path, mode: 0o700)
        } catch {
            throw TransferError.localFile(path: localPath, reason: error.reason)
        }
    }

    private static func makeLink(_ path: String, to target: String, for localPath: String) throws {
        if isSymlink(path) { try? FileManager.default.removeItem(atPath: path) }
        guard symlink(target, path) == 0 else {
            throw TransferError.localFile(path: localPath, reason: SystemCallError("symlink").reason)
        }
    }

    private static func setAttributes(of path: String, from entry: RemoteFileEntry, for localPath: String) throws {
        do {
            try FileManager.default.setAttributes(
                [
                    .posixPermissions: NSNumber(value: entry.attributes.permissions & 0o7777),
                    .modificationDate: entry.attributes.modificationTime,
                ],
                ofItemAtPath: path)
        } catch {
            throw TransferError.localFile(path: localPath, reason: SystemCallError("chmod", describing: error).reason)
        }
    }
}
