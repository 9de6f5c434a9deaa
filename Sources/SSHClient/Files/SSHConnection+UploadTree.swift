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
    ///   ``TransferError/localFile(path:reason:)``, the errors of writing on the box, and
    ///   `CancellationError` when the task is cancelled (between files; the temporary stays).
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
        // Every folder by one command: a round trip or two each over SFTP was minutes over a slow
        // link for a tree like a `node_modules`.
        let folders = tree.filter { $0.kind == .directory }.map { partial + "/" + $0.relative }
        if !folders.isEmpty {
            let runs = Self.runs(of: folders).flatMap { [.word(String($0.count))] + $0.map(RemoteScript.Argument.path) }
            _ = try await ShellFileScripts.makeFolders.run(
                on: self, input: try RemoteScript.input(runs), timeout: nil,
                failure: ShellFileErrors.failure(operation: "creating the folders of", path: path))
        }
        var links: [RemoteScript.Argument] = []
        for item in tree {
            // Between files, where a cancelled copy stops cleanly (the temporary stays for `resume`).
            try Task.checkCancellation()
            let there = partial + "/" + item.relative
            switch item.kind {
            case .file:
                try await sendFile(item, from: localPath + "/" + item.relative, to: there, resume: resume, counter: counter)
            case .symlink:
                links += [.word(item.linkTarget), .path(there)]
            default:
                continue
            }
        }
        // The folders' times last: writing their contents changed them.
        let root = try Self.localEntry(localPath, relative: "")
        let finishing =
            [.path(partial), .path(path), .word(String(links.count / 2))] + links + Self.timesAndModes(root: root, tree, in: partial)
        _ = try await ShellFileScripts.finishTree.run(on: self, input: try RemoteScript.input(finishing), timeout: nil) {
            result -> any Error in
            let error = ShellFileErrors.failure(operation: "finishing the upload of", path: path)(result)
            if case .alreadyExists = error { return TransferError.targetExists(path: path) }
            return error
        }
        return counter.snapshot
    }

    /// The folders' times and modes as ``ShellFileScripts/finishTree`` takes them: a `touch` per
    /// time and a `chmod` per run of one mode, deepest folders first (a parent that cannot be
    /// entered comes after its contents), instead of one of each per folder.
    static func timesAndModes(root: LocalEntry, _ tree: [LocalEntry], in partial: String) -> [RemoteScript.Argument] {
        let deepestFirst = ([root] + tree).reversed().filter { $0.kind == .directory }.map { item in
            (path: item.relative.isEmpty ? partial : partial + "/" + item.relative, item: item)
        }
        let byTime = Dictionary(grouping: deepestFirst) { $0.item.modified }.sorted { $0.key < $1.key }
        let times = byTime.flatMap { time, folders in runs(of: folders.map(\.path)).map { ("t", String(time), $0) } }
        var sameMode: [(permissions: UInt32, paths: [String])] = []
        for (path, item) in deepestFirst {
            if sameMode.last?.permissions == item.permissions {
                sameMode[sameMode.count - 1].paths.append(path)
            } else {
                sameMode.append((item.permissions, [path]))
            }
        }
        let modes = sameMode.flatMap { mode in runs(of: mode.paths).map { ("m", String(mode.permissions, radix: 8), $0) } }
        return (times + modes).flatMap { tag, value, paths -> [RemoteScript.Argument] in
            [.word(tag), .word(value), .word(String(paths.count))] + paths.map(RemoteScript.Argument.path)
        }
    }

    /// `paths` cut into runs of at most `limit` bytes: each run is one command line on the box,
    /// which must stay well under its `ARG_MAX` (128 KiB on some systems).
    static func runs(of paths: [String], limit: Int = 32 << 10) -> [[String]] {
        var runs: [[String]] = []
        var bytes = 0
        for path in paths {
            let size = path.utf8.count + 1
            if runs.isEmpty || bytes + size > limit {
                runs.append([])
                bytes = 0
            }
            runs[runs.count - 1].append(path)
            bytes += size
        }
        return runs
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
