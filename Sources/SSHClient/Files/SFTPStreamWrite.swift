import Synchronization

/// Chunks an upload hands to its ``SFTPStreamWrite``: filled by the caller's task, drained on
/// the I/O thread, bounded so that an upload holds a few MiB whatever the file's size.
final class UploadChunkQueue: UploadSink {
    private struct State {
        var chunks: [[UInt8]] = []
        var queued = 0
        var finished = false
        /// Set when the writer found the queue empty and parked; a push wakes it.
        var writerParked = false
        /// A producer waiting for room.
        var waiting: CheckedContinuation<Void, Never>?
        /// Set once the writer is done (failed or finished): pushes stop waiting.
        var closed = false
    }

    private let state = Mutex(State())
    private let capacity: Int
    private let wakeWriter: @Sendable () -> Void

    init(capacity: Int, wakeWriter: @escaping @Sendable () -> Void) {
        self.capacity = capacity
        self.wakeWriter = wakeWriter
    }

    /// Queues a chunk, waiting while the queue is full; returns at once after the writer ended.
    func push(_ chunk: [UInt8]) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (wake, resumeNow) = state.withLock { state -> (Bool, Bool) in
                guard !state.closed else { return (false, true) }
                state.chunks.append(chunk)
                state.queued += chunk.count
                let wake = state.writerParked
                state.writerParked = false
                if state.queued < capacity { return (wake, true) }
                state.waiting = continuation
                return (wake, false)
            }
            if wake { wakeWriter() }
            if resumeNow { continuation.resume() }
        }
    }

    /// No more chunks will come.
    func finish() {
        let wake = state.withLock { state -> Bool in
            state.finished = true
            defer { state.writerParked = false }
            return state.writerParked
        }
        if wake { wakeWriter() }
    }

    /// What the writer takes next (I/O thread).
    enum Next {
        case chunk([UInt8])
        /// Nothing queued yet: the writer parks until a push.
        case empty
        case end
    }

    func next() -> Next {
        let (next, waiter) = state.withLock { state -> (Next, CheckedContinuation<Void, Never>?) in
            guard !state.chunks.isEmpty else {
                if state.finished { return (.end, nil) }
                state.writerParked = true
                return (.empty, nil)
            }
            let chunk = state.chunks.removeFirst()
            state.queued -= chunk.count
            let waiter = state.queued < capacity ? state.waiting : nil
            if waiter != nil { state.waiting = nil }
            return (.chunk(chunk), waiter)
        }
        waiter?.resume()
        return next
    }

    /// A queue holding `bytes` and finished: one whole buffer to write.
    static func holding(_ bytes: [UInt8]) -> UploadChunkQueue {
        let queue = UploadChunkQueue(capacity: max(1, bytes.count + 1)) {}
        queue.state.withLock { state in
            state.chunks = [bytes]
            state.queued = bytes.count
            state.finished = true
        }
        return queue
    }

    /// The writer ended: a waiting producer returns, and later pushes are dropped.
    func close() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.closed = true
            state.chunks = []
            defer { state.waiting = nil }
            return state.waiting
        }
        waiter?.resume()
    }
}

/// Writes a file through one SFTP handle from an ``UploadChunkQueue`` (a stream, or one buffer):
/// one open (create and truncate, or append), libssh2's pipelined writes over chunk boundaries
/// (the unacknowledged tail of one chunk and the next are passed as one buffer), one `fsetstat`
/// for the mode and time when given (exactly: the server's umask does not apply), one close.
final class SFTPStreamWrite: SFTPHandleOperation {
    private let queue: UploadChunkQueue
    private let permissions: UInt32?
    private let modified: Int?
    private var buffer: [UInt8] = []
    private var offset = 0
    private var ended = false
    private var completion: ((Result<Void, FileFailure>) -> Void)?
    /// Below this many unacknowledged bytes the next chunk is joined on, so requests stay in flight.
    private static let lowWater = 512 << 10
    /// The most bytes handed to one `libssh2_sftp_write`, which copies them all into requests at once.
    private static let inFlight = 4 << 20

    /// - Parameters:
    ///   - createdWith: The mode a created file gets (less the server's umask).
    ///   - permissions: Set once written; nil leaves the mode as it is.
    ///   - modified: The modification (and access) time set once written, in seconds since 1970.
    init(
        path: String, queue: UploadChunkQueue, append: Bool, createdWith: UInt32, permissions: UInt32? = nil, modified: Int? = nil,
        completion: @escaping (Result<Void, FileFailure>) -> Void
    ) {
        self.queue = queue
        self.permissions = permissions
        self.modified = modified
        self.completion = completion
        super.init(
            append ? "appending to" : "writing", path: path, flags: [.write, .create, append ? .append : .truncate],
            mode: Int(createdWith))
    }

    override func work(_ handle: LibSSH2SFTP.Handle, on channel: SFTPChannel) -> Work {
        if !ended, buffer.count - offset < Self.lowWater {
            switch queue.next() {
            case .chunk(let chunk):
                buffer = offset == buffer.count ? chunk : Array(buffer[offset...]) + chunk
                offset = 0
            case .empty:
                if offset == buffer.count { return .parked }
            case .end:
                ended = true
            }
        }
        if offset < buffer.count {
            let outcome = buffer.withUnsafeBytes { bytes in
                handle.write(UnsafeRawBufferPointer(rebasing: bytes[offset..<min(bytes.count, offset + Self.inFlight)]))
            }
            switch outcome {
            case .wouldBlock: return .blocked
            case .failed(let code):
                failure = channel.failure(code, operation: operation, path: path)
                return .done
            case .done(let written):
                offset += written
                return .yielded
            }
        }
        guard ended else { return .yielded }
        return setAttributes(handle, permissions: permissions, modified: modified, on: channel)
    }

    override func deliver(_ failure: FileFailure?) {
        queue.close()
        completion?(failure.map { .failure($0) } ?? .success(()))
        completion = nil
    }
}
