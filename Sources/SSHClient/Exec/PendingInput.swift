import CLibSSH2

/// Bytes waiting to go to a command's stdin, and the EOF after them. I/O thread only.
struct PendingInput {
    private struct Chunk {
        var bytes: [UInt8]
        var offset = 0
        var completion: (Result<Void, SSHError>) -> Void
    }

    private var chunks: [Chunk] = []
    private(set) var eofRequested = false
    private var eofSent = false
    private var eofCompletions: [(Result<Void, SSHError>) -> Void] = []

    mutating func enqueue(_ bytes: [UInt8], completion: @escaping (Result<Void, SSHError>) -> Void) {
        chunks.append(Chunk(bytes: bytes, completion: completion))
    }

    mutating func requestEOF(completion: @escaping (Result<Void, SSHError>) -> Void) {
        if eofSent { return completion(.success(())) }
        eofRequested = true
        eofCompletions.append(completion)
    }

    /// Writes as much as the channel window takes; true when anything was written or sent.
    mutating func flush(_ channel: OpaquePointer, loop: ConnectionLoop) -> Bool {
        var progressed = false
        while !chunks.isEmpty {
            let rc = chunks[0].bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    let start = chars.baseAddress.map { $0 + chunks[0].offset }
                    return libssh2_channel_write_ex(channel, 0, start, chars.count - chunks[0].offset)
                }
            }
            if rc == Int(LIBSSH2_ERROR_EAGAIN) { return progressed }
            if rc < 0 {
                if loop.isFatal(Int32(rc)) { loop.lose(loop.session.error("writing command input")) }
                failPending(loop.session.error("writing command input"))
                return true
            }
            progressed = true
            chunks[0].offset += rc
            if chunks[0].offset == chunks[0].bytes.count {
                chunks.removeFirst().completion(.success(()))
            }
        }
        if eofRequested, !eofSent {
            let rc = libssh2_channel_send_eof(channel)
            if rc == LIBSSH2_ERROR_EAGAIN { return progressed }
            eofSent = true
            let result: Result<Void, SSHError> = rc == 0 ? .success(()) : .failure(loop.session.error("closing command input"))
            for completion in eofCompletions { completion(result) }
            eofCompletions = []
            progressed = true
        }
        return progressed
    }

    /// Fails every write still waiting, e.g. because the command ended.
    mutating func failPending(_ error: SSHError) {
        let waiting = chunks
        chunks = []
        for chunk in waiting { chunk.completion(.failure(error)) }
        let eofWaiting = eofCompletions
        eofCompletions = []
        for completion in eofWaiting { completion(.failure(error)) }
    }
}
