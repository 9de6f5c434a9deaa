import Synchronization

/// The caller of ``SSHConnection/connect(_:)`` gave up (its task was cancelled) while the I/O
/// thread establishes the session: every wait of the establishment ends at once and it throws
/// ``error``. The socket waits poll ``wakeFD`` beside the socket, which ``cancel()`` makes
/// readable; a wait for a task (a person's answer, a jump host) is ended by its handler.
final class EstablishmentCancellation: Sendable {
    private struct State {
        var cancelled = false
        var handlers: [Int: @Sendable () -> Void] = [:]
        var nextToken = 0
    }

    private let state = Mutex(State())
    /// The read end of the loop's wake-up pipe: readable once cancelled.
    let wakeFD: Int32
    private let wake: @Sendable () -> Void

    init(wakeFD: Int32, wake: @escaping @Sendable () -> Void) {
        self.wakeFD = wakeFD
        self.wake = wake
    }

    /// Whether the caller gave up.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// What the establishment throws once cancelled (``SSHConnection/connect(_:)`` turns it into
    /// a `CancellationError`).
    static let error = SSHError.cancelled(command: "connecting")

    /// Throws ``error`` once cancelled.
    func check() throws(SSHError) {
        if isCancelled { throw Self.error }
    }

    /// Gives up: runs the handlers and wakes a socket wait.
    func cancel() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.cancelled else { return [] }
            state.cancelled = true
            defer { state.handlers = [:] }
            return Array(state.handlers.values)
        }
        handlers.forEach { $0() }
        wake()
    }

    /// Runs `body` with `handler` called if the caller gives up meanwhile (at once if it already has).
    func whileWaiting<T>(onCancel handler: @escaping @Sendable () -> Void, _ body: () -> T) -> T {
        let token = state.withLock { state -> Int? in
            guard !state.cancelled else { return nil }
            state.nextToken += 1
            state.handlers[state.nextToken] = handler
            return state.nextToken
        }
        guard let token else {
            handler()
            return body()
        }
        defer { _ = state.withLock { $0.handlers.removeValue(forKey: token) } }
        return body()
    }
}
