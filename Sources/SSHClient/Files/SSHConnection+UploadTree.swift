import Foundation
import Platform

extension SSHConnection {
    /// Copies a local directory and everything in it to `path` on the box, which must not exist:
    /// files go as ``upload(_:to:resume:progress:)`` sends them, symbolic links are recreated as
    /// links (never followed), permission bits and modification times are kept, and other kinds
    /// (FIFOs, sockets, devices) are skipped. The tree is built in a temporary beside the target
    /// (``partialTransferPath(for:)``) and renamed at the end by one command, so `path` never
    /// holds a partial tree. Needs commands to run on the box.
    ///
    /// - Parameters:
    ///   - localPath: The directory here (a symbolic link to one is followed).
    ///   - path: The directory to create on the box (its parent must exist).
    ///   - resume: Continue the temporary of an interrupted copy: files already there with the
    ///     local size and time are kept, a partial file is continued as an upload resumes;
    ///     otherwise such a temporary is removed first.
    ///   - progress: Called as bytes are sent; `total` counts every file of the tree.
    /// - Returns: The last progress.
    /// - Throws: ``TransferError/targetExists(path:)``, ``TransferError/notADirectory(path:)``,
    ///   ``TransferError/localFile(path:reason:)``, and the errors of writing on the box.
    @discardableResult
    public func uploadDirectory(
        _ localPath: String, to path: String, resume: Bool = false, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> TransferProgress {
        guard SystemCall.isDirectory(localPath) else { throw TransferError.notADirectory(path: localPath) }
        if (try? await stat(path)) != nil { throw TransferError.targetExists(path: path) }
        let partial = Self.partialTransferPath(for: path)
        let leftover = try? await stat(partial)
        if let leftover, !resume || leftover.kind != .directory { try await removeRecursively(partial) }
        let tree = try Self.localTree(localPath)
        let total = tree.reduce(UInt64(0)) { $0 + ($1.kind == .file ? $1.size : 0) }
        let counter = TreeProgress(total: total, report: progress)
        if !(resume && leftover?.kind == .directory) { try await makeDirectory(partial, permissions: 0o700) }
        var links: [RemoteScript.Argument] = []
        for item in tree {
            let there = partial + "/" + item.relative
            switch item.kind {
            case .directory:
                if (try? await stat(there))?.kind != .directory { try await makeDirectory(there, permissions: 0o700) }
            case .file:
                try await sendFile(item, from: localPath + "/" + item.relative, to: there, resume: resume, counter: counter)
            case .symlink:
                links += [.word(item.linkTarget), .path(there)]
            default:
                continue
            }
        }
        // Directories last, deepest first: writing their contents changed their times.
        let root = try Self.localEntry(localPath, relative: "")
        let folders = ([root] + tree).reversed().filter { $0.kind == .directory }.flatMap { item -> [RemoteScript.Argument] in
            [
                .word(String(item.permissions, radix: 8)), .word(String(item.modified)),
                .path(item.relative.isEmpty ? partial : partial + "/" + item.relative),
            ]
        }
        let arguments = try RemoteScript.input([.path(partial), .path(path), .word(String(links.count / 2))] + links + folders)
        _ = try await ShellFileScripts.finishTree.run(on: self, input: arguments, timeout: nil) { result -> any Error in
            let error = ShellFileErrors.failure(operation: "finishing the upload of", path: path)(result)
            if case .alreadyExists = error { return TransferError.targetExists(path: path) }
            return error
        }
        return counter.snapshot
    }

    /// One file of the tree; kept when a resumed copy has it already with the same size and time.
    private func sendFile(_ item: LocalEntry, from local: String, to there: String, resume: Bool, counter: TreeProgress) async throws {
        if resume, let remote = try? await stat(there), remote.kind == .file, remote.size == item.size,
            Int(remote.attributes.modificationTime.timeIntervalSince1970) == item.modified
        {
            counter.add(done: item.size, moved: 0)
            return
        }
        if item.size <= Self.wholeFileLimit {
            // One SFTP write with the mode and time (open, write, fsetstat, close), straight into
            // the tree, which is a temporary itself: no temporary and no command per file.
            let bytes: [UInt8]
            do throws(SystemCallError) {
                bytes = try SystemCall.readFile(local)
            } catch {
                throw TransferError.localFile(path: local, reason: error.reason)
            }
            do {
                try await placeFile(there, contents: bytes, finish: PlacedFile(permissions: item.permissions, modified: item.modified))
            } catch let error as RemoteFileError {
                throw try await writeFailure(error, removing: there, of: there, needing: bytes.count)
            }
            counter.add(done: UInt64(bytes.count), moved: UInt64(bytes.count))
            return
        }
        let before = counter.snapshot
        let last = try await upload(local, to: there, resume: resume) { file in counter.file(file, after: before) }
        counter.file(last, after: before)
    }

    /// An entry of a local tree, by `lstat`.
    struct LocalEntry {
        var relative: String
        var kind: RemoteFileKind
        var size: UInt64
        var permissions: UInt32
        var modified: Int
        var linkTarget: String
    }

    /// Every entry under `root`, parents before their contents, names sorted; links not followed.
    static func localTree(_ root: String) throws -> [LocalEntry] {
        var tree: [LocalEntry] = []
        func walk(_ relative: String) throws {
            let folder = relative.isEmpty ? root : root + "/" + relative
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            } catch {
                throw TransferError.localFile(path: folder, reason: SystemCallError("opendir", describing: error).reason)
            }
            for name in names {
                let entry = try localEntry(root, relative: relative.isEmpty ? name : relative + "/" + name)
                tree.append(entry)
                if entry.kind == .directory { try walk(entry.relative) }
            }
        }
        try walk("")
        return tree
    }

    static func localEntry(_ root: String, relative: String) throws -> LocalEntry {
        let path = relative.isEmpty ? root : root + "/" + relative
        let attributes: [FileAttributeKey: Any]
        do {
            // The root is followed (a link to a folder is that folder); entries below it are not.
            attributes =
                relative.isEmpty
                ? try FileManager.default.attributesOfItem(atPath: URL(fileURLWithPath: path).resolvingSymlinksInPath().path)
                : try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw TransferError.localFile(path: path, reason: SystemCallError("lstat", describing: error).reason)
        }
        let kind: RemoteFileKind
        switch attributes[.type] as? FileAttributeType {
        case .typeRegular?: kind = .file
        case .typeDirectory?: kind = .directory
        case .typeSymbolicLink?: kind = .symlink
        default: kind = .other
        }
        return LocalEntry(
            relative: relative, kind: kind, size: (attributes[.size] as? NSNumber)?.uint64Value ?? 0,
            permissions: UInt32((attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0o755) & 0o7777,
            modified: Int(((attributes[.modificationDate] as? Date) ?? Date()).timeIntervalSince1970),
            linkTarget: kind == .symlink ? ((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "") : "")
    }
}
