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

    /// Queues `bytes` before everything waiting; nothing of the first chunk may be written yet.
    mutating func enqueueFirst(_ bytes: [UInt8], completion: @escaping (Result<Void, SSHError>) -> Void) {
        precondition(chunks.first?.offset ?? 0 == 0, "a chunk was partly written")
        chunks.insert(Chunk(bytes: bytes, completion: completion), at: 0)
    }

    mutating func requestEOF(completion: @escaping (Result<Void, SSHError>) -> Void) {
        if eofSent { return completion(.success(())) }
        eofRequested = true
        eofCompletions.append(completion)
    }

    /// Writes as much as the channel window takes; true when anything was written or sent.
    mutating func flush(_ channel: LibSSH2Channel, loop: LoopContext) -> Bool {
        var progressed = false
        while !chunks.isEmpty {
            let written = chunks[0].bytes.withUnsafeBytes { channel.write(UnsafeRawBufferPointer(rebasing: $0[chunks[0].offset...])) }
            switch written {
            case .wouldBlock:
                return progressed
            case .failed(let rc):
                let error = loop.transport.error("writing command input")
                // A dead link leaves the input to the loss, which fails it as connection lost, as
                // everything else on the link: a caller may write again after a reconnect.
                if LibSSH2Code.isFatal(rc) { loop.lose(error) } else { failPending(error) }
                return true
            case .done(let count):
                progressed = true
                chunks[0].offset += count
                if chunks[0].offset == chunks[0].bytes.count {
                    chunks.removeFirst().completion(.success(()))
                }
            }
        }
        if eofRequested, !eofSent {
            let sent = channel.sendEOF()
            if case .wouldBlock = sent { return progressed }
            eofSent = true
            var result: Result<Void, SSHError> = .success(())
            if case .failed = sent { result = .failure(loop.transport.error("closing command input")) }
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
