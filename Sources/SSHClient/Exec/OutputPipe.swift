import Synchronization

/// The bounded buffer between a channel (filled on the I/O thread) and the task reading its output.
///
/// When it holds `capacity` bytes the channel stops reading, so the server's flow control pauses
/// that channel only; reading below half of it wakes the I/O thread to resume.
final class OutputPipe: Sendable {
    private struct State {
        var events: [CommandOutputEvent] = []
        var head = 0
        var bufferedBytes = 0
        var end: Result<Void, SSHError>?
        var waiter: CheckedContinuation<CommandOutputEvent?, any Error>?
        var producerPaused = false
    }

    private let state = Mutex(State())
    private let capacity: Int
    private let resumeProducer: @Sendable () -> Void
    private let cancelCommand: @Sendable () -> Void

    init(capacity: Int, resumeProducer: @escaping @Sendable () -> Void, cancelCommand: @escaping @Sendable () -> Void) {
        self.capacity = capacity
        self.resumeProducer = resumeProducer
        self.cancelCommand = cancelCommand
    }

    /// Producer side: whether another chunk may be read now. A "no" marks the producer paused.
    func hasRoom() -> Bool {
        state.withLock { state in
            if state.bufferedBytes < capacity { return true }
            state.producerPaused = true
            return false
        }
    }

    /// Whether the buffer has room, without marking the producer paused (for diagnostics).
    var hasRoomPeek: Bool { state.withLock { $0.bufferedBytes < capacity } }

    /// Producer side: hands over a chunk.
    func push(_ event: CommandOutputEvent) {
        let waiter = state.withLock { state -> CheckedContinuation<CommandOutputEvent?, any Error>? in
            guard state.end == nil else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.events.append(event)
            state.bufferedBytes += event.byteCount
            return nil
        }
        waiter?.resume(returning: event)
    }

    /// Producer side: no more output; `result` says whether the command ended normally.
    func finish(_ result: Result<Void, SSHError>) {
        let waiter = state.withLock { state -> CheckedContinuation<CommandOutputEvent?, any Error>? in
            guard state.end == nil else { return nil }
            state.end = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result.map { nil }.mapError { $0 as any Error })
    }

    /// Consumer side: the next chunk, or nil at the end. Cancelling the waiting task stops the command.
    func next() async throws -> CommandOutputEvent? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let (ready, wake) = state.withLock { state -> (Result<CommandOutputEvent?, SSHError>?, Bool) in
                    if state.head < state.events.count {
                        let event = state.events[state.head]
                        state.head += 1
                        state.bufferedBytes -= event.byteCount
                        if state.head > 256, state.head * 2 > state.events.count {
                            state.events.removeFirst(state.head)
                            state.head = 0
                        }
                        let wake = state.producerPaused && state.bufferedBytes <= capacity / 2
                        if wake { state.producerPaused = false }
                        return (.success(event), wake)
                    }
                    if let end = state.end { return (end.map { nil }, false) }
                    state.waiter = continuation
                    return (nil, false)
                }
                if wake { resumeProducer() }
                if let ready { continuation.resume(with: ready.mapError { $0 as any Error }) }
            }
        } onCancel: {
            cancelCommand()
        }
    }
}

/// The output of a streaming command: an async sequence of chunks in arrival order.
///
/// Iterate it once. It ends when the command's output ends, or throws ``SSHError`` when the
/// command timed out, was cancelled or the connection was lost. Reading slowly pauses this
/// command's channel only.
public struct CommandOutput: AsyncSequence, Sendable {
    public typealias Element = CommandOutputEvent
    let pipe: OutputPipe
    /// Keeps the command's connection (or process) while its output is read.
    let handle: any CommandControl

    /// Iterates the output chunks.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let pipe: OutputPipe
        let handle: any CommandControl
        /// The next chunk, or nil at the end of the output.
        public mutating func next() async throws -> CommandOutputEvent? { try await pipe.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(pipe: pipe, handle: handle) }
}
