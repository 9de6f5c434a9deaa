import Synchronization

/// The bounded pipe between a file read on the I/O thread and the task iterating a
/// ``RemoteFileReader``: an ``OutputPipe`` (its `stdout` events are the chunks) plus the
/// file-level error, which the pipe itself cannot carry.
final class FileChunkPipe: Sendable {
    let pipe: OutputPipe
    private let fileError = Mutex<RemoteFileError?>(nil)

    init(capacity: Int, resume: @escaping @Sendable () -> Void, cancel: @escaping @Sendable () -> Void) {
        pipe = OutputPipe(capacity: capacity, resumeProducer: resume, cancelCommand: cancel)
    }

    func hasRoom() -> Bool { pipe.hasRoom() }

    func push(_ event: CommandOutputEvent) { pipe.push(event) }

    /// Ends the stream: normally, or with the failure the caller will see.
    func finish(_ failure: FileFailure?) {
        switch failure {
        case nil:
            pipe.finish(.success(()))
        case .connection(let error)?:
            pipe.finish(.failure(error))
        case .file(let error)?:
            fileError.withLock { $0 = error }
            pipe.finish(.failure(.channelFailed(operation: "reading a file", reason: error.description)))
        }
    }

    /// The next chunk; nil at the end.
    func next() async throws -> [UInt8]? {
        do {
            guard let event = try await pipe.next() else { return nil }
            switch event {
            case .stdout(let bytes), .stderr(let bytes): return bytes
            }
        } catch {
            if let fileError = fileError.withLock({ $0 }) { throw fileError }
            throw error
        }
    }
}

/// A remote file read as it arrives, from ``SSHConnection/streamFile(_:from:length:bufferSize:)``.
///
/// Iterate it once: each element is the next chunk of bytes, in order. Reading slowly pauses the
/// transfer (the bytes in flight stay bounded); cancelling the iterating task stops it. Errors
/// (``RemoteFileError``, or ``SSHError`` for the connection) are thrown by the iteration.
public struct RemoteFileReader: AsyncSequence, Sendable {
    /// A chunk of the file's bytes.
    public typealias Element = [UInt8]

    private let source: Source
    /// Stops the transfer once the reader and all its iterators are gone, read to the end or not.
    private let lifetime: ReaderLifetime
    /// Errors name paths starting with `remote` as starting with `shown` (the caller's spelling).
    private var pathNames: (remote: String, shown: String) = ("", "")
    /// Held so that the connection stays open while the file is read.
    private var connection: SSHConnection?

    enum Source: Sendable {
        case sftp(FileChunkPipe)
        case shell(RemoteCommand, path: String)
    }

    init(_ source: Source, onAbandon: @escaping @Sendable () -> Void) {
        self.source = source
        lifetime = ReaderLifetime(onAbandon)
    }

    /// The reader with errors naming `remote` paths as `shown`.
    func naming(_ remote: String, as shown: String) -> RemoteFileReader {
        var reader = self
        reader.pathNames = (remote, shown)
        return reader
    }

    /// The reader keeping `connection` open while it is in use.
    func holding(_ connection: SSHConnection) -> RemoteFileReader {
        var reader = self
        reader.connection = connection
        return reader
    }

    /// Iterates the chunks.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let source: Source
        let lifetime: ReaderLifetime
        let pathNames: (remote: String, shown: String)
        let connection: SSHConnection?
        var stderr: [UInt8] = []
        var output: CommandOutput.AsyncIterator?
        /// The first bytes the shell printed, held while they may be the descriptor check's report.
        var head: [UInt8]? = []

        /// The next chunk, or nil at the end of the file (or range).
        public mutating func next() async throws -> [UInt8]? {
            do {
                return try await nextChunk()
            } catch let error as RemoteFileError {
                throw error.replacingPathPrefix(pathNames.remote, with: pathNames.shown)
            }
        }

        private mutating func nextChunk() async throws -> [UInt8]? {
            switch source {
            case .sftp(let pipe):
                return try await pipe.next()
            case .shell(let command, let path):
                if output == nil { output = command.output.makeAsyncIterator() }
                while let event = try await output!.next() {
                    switch event {
                    case .stdout(let bytes):
                        guard let held = head else { return bytes }
                        // What the check printed is told from a file's bytes only by the status at the end.
                        if RemoteScript.mayBeOutOfDescriptorsReport(held + bytes) {
                            head = held + bytes
                            continue
                        }
                        head = nil
                        return held + bytes
                    case .stderr(let bytes): stderr += bytes
                    }
                }
                let status = try await command.exitStatus()
                if let held = head, !held.isEmpty {
                    head = nil
                    let result = CommandResult(stdout: held, stderr: stderr, status: status)
                    if let error = ShellFileScripts.read.outOfDescriptors(result) { throw error }
                    return held
                }
                if status != .exited(0) { throw ShellFileErrors.error(stderr: stderr, status: status, operation: "reading", path: path) }
                return nil
            }
        }
    }

    /// An iterator over the chunks; make one.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(source: source, lifetime: lifetime, pathNames: pathNames, connection: connection)
    }
}

/// Runs its action when the last reader or iterator holding it goes away. After a normal end
/// the action finds nothing left to stop.
final class ReaderLifetime: Sendable {
    private let action: @Sendable () -> Void

    init(_ action: @escaping @Sendable () -> Void) { self.action = action }

    deinit { action() }
}
