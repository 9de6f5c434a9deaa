/// Reads a file, or a byte range of it, through one SFTP handle: into memory, or chunk by chunk
/// into a bounded pipe whose consumer's pace parks the operation.
///
/// `libssh2_sftp_read` keeps four times the buffer it is given in flight as 30,000-byte
/// requests, so reads use up to 2 MiB buffers; near the end of a range the buffer shrinks so that
/// little is requested past it.
final class SFTPReadFile: SFTPHandleOperation {
    enum Sink {
        case collect((Result<[UInt8], FileFailure>) -> Void)
        case stream(FileChunkPipe)
    }

    static let chunkSize = 2 << 20
    /// Reads of at most this many bytes into memory allocate their limit instead of asking the size.
    static let unsizedLimit: UInt64 = 16 << 20
    private let offset: UInt64
    private let limit: UInt64?
    private var sink: Sink?
    private var buffer: [UInt8] = []
    private var filled = 0
    private var total: UInt64 = 0
    private var expected: UInt64?
    private var sought = false

    /// - Parameters:
    ///   - offset: The first byte to read.
    ///   - limit: How many bytes at most; nil reads to the end.
    init(path: String, offset: UInt64, limit: UInt64?, sink: Sink) {
        self.offset = offset
        self.limit = limit
        self.sink = sink
        super.init("reading", path: path, flags: .read)
        if case .stream = sink { buffer = [UInt8](repeating: 0, count: 2 * Self.chunkSize) }
    }

    override func work(_ handle: LibSSH2SFTP.Handle, on channel: SFTPChannel) -> Work {
        if !sought {
            if offset > 0 { handle.seek(to: offset) }
            sought = true
        }
        if case .collect = sink, expected == nil, let limit, limit <= Self.unsizedLimit {
            // Small enough to size the buffer by the limit: no fstat round trip.
            expected = limit
            buffer = [UInt8](repeating: 0, count: Int(limit))
        }
        if case .collect = sink, expected == nil {
            let size: UInt64
            switch handle.attributes() {
            case .wouldBlock: return .blocked
            case .failed(let code): return fail(code, on: channel)
            case .done(let attributes): size = attributes.size
            }
            let available = size > offset ? size - offset : 0
            expected = min(available, limit ?? .max)
            buffer = [UInt8](repeating: 0, count: Int(expected!) + (limit == expected ? 0 : 1))
        }
        return readChunk(handle, on: channel)
    }

    private func readChunk(_ handle: LibSSH2SFTP.Handle, on channel: SFTPChannel) -> Work {
        let remaining = limit.map { $0 - total }
        if remaining == 0 { return flushed(.done) }
        if case .stream(let pipe) = sink {
            if filled == 0, !pipe.hasRoom() { return .parked }
        } else if filled == buffer.count {
            buffer.append(contentsOf: repeatElement(0, count: max(buffer.count, 1 << 16)))
        }
        let outstanding = remaining ?? (expected.map { $0 > total ? $0 - total : 1 } ?? UInt64(Self.chunkSize))
        let cap = Int(min(UInt64(Self.chunkSize), max(32 << 10, outstanding / 4), remaining ?? .max))
        let want = min(buffer.count - filled, cap)
        let outcome = buffer.withUnsafeMutableBytes { bytes in
            handle.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[filled..<filled + want]))
        }
        let rc: Int
        switch outcome {
        case .wouldBlock: return flushed(.blocked)
        case .failed(let code): return fail(code, on: channel)
        case .done(0): return flushed(.done)
        case .done(let count): rc = count
        }
        total += UInt64(rc)
        filled += rc
        // A stream hands over whole chunks (a read often returns one 30,000-byte reply): fewer
        // hops to the consumer, and the buffer stays big enough to keep libssh2's read-ahead.
        if case .stream = sink, filled >= Self.chunkSize { return flushed(.yielded) }
        return .yielded
    }

    /// Hands what a stream accumulated to its consumer, then says `work`.
    private func flushed(_ work: Work) -> Work {
        if case .stream(let pipe) = sink, filled > 0 {
            pipe.push(.stdout(Array(buffer[0..<filled])))
            filled = 0
        }
        return work
    }

    private func fail(_ code: Int32, on channel: SFTPChannel) -> Work {
        failure = channel.failure(code, operation: operation, path: path)
        return .done
    }

    override func deliver(_ failure: FileFailure?) {
        switch sink {
        case .collect(let completion)?:
            if let failure {
                completion(.failure(failure))
            } else {
                buffer.removeSubrange(filled...)
                completion(.success(buffer))
            }
        case .stream(let pipe)?:
            pipe.finish(failure)
        case nil:
            break
        }
        sink = nil
    }
}
