import Synchronization

/// A value that arrives once, awaited by any number of tasks.
final class Promise<Value: Sendable>: Sendable {
    private struct State {
        var result: Result<Value, SSHError>?
        var waiters: [CheckedContinuation<Value, any Error>] = []
    }

    private let state = Mutex(State())

    /// Settles the promise; later calls are ignored, so the first outcome wins.
    func complete(_ result: Result<Value, SSHError>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, any Error>] in
            guard state.result == nil else { return [] }
            state.result = result
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(with: result.mapError { $0 as any Error }) }
    }

    var isCompleted: Bool { state.withLock { $0.result != nil } }

    /// The outcome if it has arrived: the value, or the failure thrown; nil while pending.
    func peek() throws(SSHError) -> Value? {
        guard let result = state.withLock({ $0.result }) else { return nil }
        return try result.get()
    }

    /// Waits for the outcome.
    func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<Value, SSHError>? in
                if let result = state.result { return result }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(with: ready.mapError { $0 as any Error }) }
        }
    }
}

/// A loop-confined object carried through `Sendable` closures to the thread that owns it.
///
/// The one `@unchecked Sendable` rws ships. Sound because the reference only travels: ``value``
/// is the only way to it and traps (release builds too) on any thread but its loop's I/O
/// thread, so the object is still used by one thread only.
struct LoopBound<Value: AnyObject>: @unchecked Sendable {
    private let wrapped: Value
    private let loop: ConnectionLoop

    init(_ value: Value, loop: ConnectionLoop) {
        wrapped = value
        self.loop = loop
    }

    /// Binds `value` to the loop whose thread `context` belongs to.
    init(_ value: Value, loop context: LoopContext) {
        self.init(value, loop: context.handle)
    }

    var value: Value {
        loop.preconditionOnLoopThread("a loop-bound value")
        return wrapped
    }

    /// Runs `body` with the value on its loop's thread; the loop's terminal error when it has ended.
    @discardableResult
    func onLoop(_ body: @escaping @Sendable (Value) -> Void) -> SSHError? {
        loop.submit { _ in body(self.value) }
    }
}
