import Synchronization

/// The file operations over the connection's SFTP session. Paths must be absolute here.
struct SFTPFileBackend: FileBackend {
    let loop: ConnectionLoop
    /// Runs the fallback's commands where SFTP v3 falls short (replacing an existing file).
    let shell: ShellFileBackend

    /// Queues the operation `make` builds on the SFTP session and waits for its outcome.
    private func perform<T: Sendable>(
        _ make: @escaping @Sendable (@escaping (Result<T, FileFailure>) -> Void) -> SFTPOperation
    ) async throws -> T {
        let promise = FilePromise<T>()
        if let error = loop.submit({ loop in SFTPChannel.submit(make { promise.settle($0) }, on: loop) }) { throw error }
        return try await promise.fileValue()
    }

    /// One SFTP call on `path`, repeated while it says EAGAIN.
    private func call<T: Sendable>(
        _ operation: String, _ path: String,
        _ attempt: @escaping @Sendable (LibSSH2SFTP) -> LibSSH2Outcome<T>
    ) async throws -> T {
        try await perform { done in SFTPCall(operation, path: path, attempt: attempt, completion: done) }
    }

    /// Waits until the SFTP session runs; throws ``RemoteFileError/sftpUnavailable(reason:)`` if the server has none.
    func open() async throws {
        try await call("starting SFTP", "") { _ in .done(()) }
    }

    /// How long an SFTP listing may take before the exec listing (one command, one round trip)
    /// takes over, where the transport is chosen automatically (``RemoteFileTransport/sftp`` is
    /// SFTP only): READDIR requests go one at a time, ~100 names each, so a big directory over
    /// a slow link takes a round trip per hundred names.
    static let listingBudget: Duration = .milliseconds(750)

    func list(_ path: String, symlinkTargets: Bool) async throws -> [ListedEntry] {
        var entries: [ListedEntry] = []
        var bufferSize = 4096
        var deadline: ContinuousClock.Instant? = loop.configuration.fileTransport == .automatic ? .now + Self.listingBudget : nil
        while true {
            do {
                let (size, until) = (bufferSize, deadline)
                entries = try await perform { done in SFTPListDirectory(path: path, bufferSize: size, deadline: until, completion: done) }
                break
            } catch RemoteFileError.failed(_, _, SFTPListDirectory.nameTooLong) where bufferSize < 1 << 20 {
                bufferSize *= 16
            } catch RemoteFileError.failed(_, _, SFTPListDirectory.tooSlow) {
                deadline = nil
                if await shell.commandsRun() {
                    loop.configuration.logger.debug("listing \(path) by exec: SFTP ran past \(Self.listingBudget)")
                    return try await shell.list(path, symlinkTargets: symlinkTargets)
                }
            } catch let error as RemoteFileError {
                throw try await refineDirectoryError(error, path: path)
            }
        }
        guard symlinkTargets else { return entries }
        for index in entries.indices where entries[index].attributes.kind == .symlink {
            let name = String(decoding: entries[index].name, as: UTF8.self)
            entries[index].target = try? await readLink(RemotePath.join(path, name))
        }
        return entries
    }

    /// OpenSSH answers "no such file" or a bare failure for a path that is not a directory.
    private func refineDirectoryError(_ error: RemoteFileError, path: String) async throws -> RemoteFileError {
        guard error == .noSuchFile(path: path) || SFTPStatus.isGeneric(error) else { return error }
        guard let attributes = try? await stat(path, followSymlinks: true) else { return error }
        return attributes.kind == .directory ? error : .notADirectory(path: path)
    }

    func stat(_ path: String, followSymlinks: Bool) async throws -> RemoteFileAttributes {
        try await call("stat", path) { $0.attributes(of: path, followingSymlinks: followSymlinks) }
    }

    func readLink(_ path: String) async throws -> [UInt8] {
        try await call("reading the link", path) { $0.linkTarget(of: path) }
    }

    /// The remote server's idea of `path` made absolute (for `.`: the login directory).
    func realPath(_ path: String) async throws -> String {
        String(decoding: try await call("resolving", path) { $0.realPath(of: path) }, as: UTF8.self)
    }

    func read(_ path: String, offset: UInt64, length: UInt64?) async throws -> [UInt8] {
        do {
            return try await perform { done in SFTPReadFile(path: path, offset: offset, limit: length, sink: .collect(done)) }
        } catch let error as RemoteFileError {
            throw try await refineFileError(error, path: path)
        }
    }

    /// Opening a directory for reading gives a bare failure over SFTP v3.
    private func refineFileError(_ error: RemoteFileError, path: String) async throws -> RemoteFileError {
        guard SFTPStatus.isGeneric(error), let attributes = try? await stat(path, followSymlinks: true) else { return error }
        return attributes.kind == .directory ? .isADirectory(path: path) : error
    }

    func stream(_ path: String, offset: UInt64, length: UInt64?, bufferSize: Int) async throws -> RemoteFileReader {
        if try await stat(path, followSymlinks: true).kind == .directory { throw RemoteFileError.isADirectory(path: path) }
        let operation = Mutex<LoopBound<SFTPReadFile>?>(nil)
        let cancel: @Sendable () -> Void = { [loop] in
            guard let bound = operation.withLock({ $0 }) else { return }
            loop.submit { loop in loop.sftp?.cancel(bound.value) }
        }
        let pipe = FileChunkPipe(
            capacity: max(1, bufferSize),
            resume: { [loop] in
                loop.submit { loop in loop.sftp?.unpark() }
            }, cancel: cancel)
        let failure = loop.submit { loop in
            let read = SFTPReadFile(path: path, offset: offset, limit: length, sink: .stream(pipe))
            operation.withLock { $0 = LoopBound(read, loop: loop) }
            SFTPChannel.submit(read, on: loop)
        }
        if let failure { throw failure }
        return RemoteFileReader(.sftp(pipe), onAbandon: cancel)
    }

    func write(_ path: String, contents: [UInt8], permissions: UInt32) async throws {
        let (parent, _) = RemotePath.split(path)
        let temporary = RemotePath.join(parent, temporaryFileName())
        if try await exists(path), try await stat(path, followSymlinks: true).kind == .directory {
            throw RemoteFileError.isADirectory(path: path)
        }
        do {
            try await perform { done in
                SFTPStreamWrite(
                    path: temporary, queue: .holding(contents), append: false, createdWith: permissions, permissions: permissions,
                    completion: done)
            }
            try await rename(temporary, over: path)
        } catch {
            try? await unlink(temporary)
            if let fileError = error as? RemoteFileError, case .noSuchFile = fileError { throw RemoteFileError.noSuchFile(path: path) }
            throw error
        }
    }

    /// SFTP v3 renames only onto a free name (OpenSSH links, then unlinks); an existing target
    /// is replaced with `mv -f` (one `rename(2)`), as libssh2 1.10 cannot send `posix-rename@openssh.com`.
    private func rename(_ source: String, over target: String) async throws {
        do {
            try await call("renaming", source) { $0.rename(source, to: target) }
        } catch let error as RemoteFileError where SFTPStatus.isGeneric(error) {
            _ = try await ShellFileScripts.replace.run(
                on: shell.connection, [.word(source), .word(target)], timeout: nil,
                failure: ShellFileErrors.failure(operation: "replacing", path: target))
        }
    }

    private func exists(_ path: String) async throws -> Bool {
        do {
            _ = try await stat(path, followSymlinks: false)
            return true
        } catch RemoteFileError.noSuchFile {
            return false
        }
    }

    func append(_ path: String, contents: [UInt8]) async throws {
        do {
            try await perform { done in
                SFTPStreamWrite(path: path, queue: .holding(contents), append: true, createdWith: 0o644, completion: done)
            }
        } catch let error as RemoteFileError {
            throw try await refineFileError(error, path: path)
        }
    }

    func place(_ path: String, contents: [UInt8], append: Bool, finish: PlacedFile?) async throws {
        do {
            try await perform { done in
                SFTPStreamWrite(
                    path: path, queue: .holding(contents), append: append, createdWith: 0o600, permissions: finish?.permissions,
                    modified: finish?.modified, completion: done)
            }
        } catch let error as RemoteFileError {
            throw try await refineFileError(error, path: path)
        }
    }

    func stream(into path: String, append: Bool, finish: PlacedFile?, _ produce: (any UploadSink) async throws -> Void) async throws {
        let queue = UploadChunkQueue(capacity: 8 << 20) { [loop] in loop.submit { $0.sftp?.unpark() } }
        let promise = FilePromise<Void>()
        if let error = loop.submit({ loop in
            let write = SFTPStreamWrite(
                path: path, queue: queue, append: append, createdWith: 0o600, permissions: finish?.permissions,
                modified: finish?.modified
            ) { promise.settle($0) }
            SFTPChannel.submit(write, on: loop)
        }) {
            throw error
        }
        let produced: Result<Void, any Error>
        do {
            try await produce(queue)
            produced = .success(())
        } catch {
            produced = .failure(error)
        }
        // After a local failure the bytes queued so far still land: the temporary stays resumable.
        queue.finish()
        do {
            try await promise.fileValue()
        } catch let error as RemoteFileError {
            throw try await refineFileError(error, path: path)
        }
        try produced.get()
    }

    func makeDirectory(_ path: String, intermediates: Bool, permissions: UInt32) async throws {
        do {
            try await mkdir(path, permissions: permissions)
        } catch let error as RemoteFileError {
            if intermediates, case .noSuchFile = error, RemotePath.split(path).parent != path {
                try await makeDirectory(RemotePath.split(path).parent, intermediates: true, permissions: 0o755)
                return try await mkdir(path, permissions: permissions)
            }
            guard let attributes = try? await stat(path, followSymlinks: true) else { throw error }
            if intermediates, attributes.kind == .directory { return }
            throw RemoteFileError.alreadyExists(path: path)
        }
    }

    /// `mkdir`, then the exact permission bits (the server's umask applies to `mkdir`).
    private func mkdir(_ path: String, permissions: UInt32) async throws {
        try await call("creating the directory", path) { $0.makeDirectory(path, permissions: permissions) }
        try await call("setting permissions of", path) { $0.setPermissions(of: path, to: permissions) }
    }

    func remove(_ path: String) async throws {
        let attributes = try await stat(path, followSymlinks: false)
        guard attributes.kind == .directory else { return try await unlink(path) }
        do {
            try await call("removing the directory", path) { $0.removeDirectory(path) }
        } catch let error as RemoteFileError where SFTPStatus.isGeneric(error) {
            throw try await list(path, symlinkTargets: false).isEmpty ? error : RemoteFileError.directoryNotEmpty(path: path)
        }
    }

    private func unlink(_ path: String) async throws {
        try await call("removing", path) { $0.removeFile(path) }
    }

    /// Depth first, from `lstat` attributes only: a symlink is removed, never followed.
    func removeRecursively(_ path: String) async throws {
        let attributes = try await stat(path, followSymlinks: false)
        guard attributes.kind == .directory else { return try await unlink(path) }
        for entry in try await list(path, symlinkTargets: false) {
            let child = RemotePath.join(path, String(decoding: entry.name, as: UTF8.self))
            if entry.attributes.kind == .directory {
                try await removeRecursively(child)
            } else {
                try await unlink(child)
            }
        }
        try await call("removing the directory", path) { $0.removeDirectory(path) }
    }
}
