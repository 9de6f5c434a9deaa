import Foundation
import Platform
import Synchronization

/// One connection's I/O thread, as the rest of the process sees it: a handle that hands work
/// over and reports how the connection ended.
///
/// The thread owns the socket and the libssh2 session in a ``LoopContext``, which only it can
/// reach: work submitted here runs there and receives the context. Everything on this handle is
/// safe from any thread (immutable, a mutex, an atomic or a promise), so the compiler checks it.
final class ConnectionLoop: Sendable {
    let configuration: SSHConnectionConfiguration
    private let wakeSignal: WakeSignal
    private let inbox = Mutex(Inbox())
    private let ready = Promise<Void>()
    private let stopped = Promise<Void>()
    /// Set once by the I/O thread before anything else runs on it; read to check confinement.
    private let loopThread = Mutex<pthread_t?>(nil)
    /// Counters for diagnostics and the no-stall tests; written by the I/O thread only.
    let counters = LoopCounters()
    /// Channels the server opened for this session so far.
    let channelsOpened = Atomic<Int>(0)
    /// What the remote file API learned about this connection (transport, home).
    let files = FileAccessState()
    /// The I/O thread, joined by ``close()`` so that a program may exit right after it.
    private let thread = Mutex<JoinableThread?>(nil)
    /// The stops a close stopped waiting for (see ``LoopContext``'s closing).
    private let unfinished = Mutex<[UnfinishedStop]>([])

    private struct Inbox {
        var work: [@Sendable (LoopContext) -> Void] = []
        var terminalError: SSHError?
        var serverIdentification: String?
        var roundTripBound: Duration?
    }

    /// The caller of ``start(_:)`` giving up while the session is established.
    let establishing: EstablishmentCancellation

    private init(configuration: SSHConnectionConfiguration, wakeSignal: WakeSignal) {
        self.configuration = configuration
        self.wakeSignal = wakeSignal
        // Nothing else wakes the loop before start returns: the pipe is readable only once cancelled.
        establishing = EstablishmentCancellation(wakeFD: wakeSignal.readFD, wake: { [wakeSignal] in wakeSignal.wake() })
    }

    /// Connects, authenticates, and starts serving; throws what establishing the session threw,
    /// or `CancellationError` when the calling task was cancelled meanwhile.
    static func start(_ configuration: SSHConnectionConfiguration) async throws -> ConnectionLoop {
        let wakeSignal: WakeSignal
        do {
            wakeSignal = try WakeSignal()
        } catch {
            throw SSHError.connectionLost(reason: "cannot start the connection: " + error.reason(advising: nil))
        }
        let loop = ConnectionLoop(configuration: configuration, wakeSignal: wakeSignal)
        do {
            let thread = try JoinableThread(stackSize: 1 << 20) { LoopContext.run(loop) }
            loop.thread.withLock { $0 = thread }
        } catch {
            throw SSHError.connectionLost(reason: "cannot start the connection's thread (\(error))")
        }
        // A cancelled caller ends every wait of the establishment at once (socket, a person's
        // answer, a jump host) and gets a CancellationError, with nothing left open.
        do {
            try await withTaskCancellationHandler {
                try await loop.ready.value()
            } onCancel: {
                loop.establishing.cancel()
            }
        } catch {
            if loop.establishing.isCancelled { throw CancellationError() }
            throw error
        }
        if loop.establishing.isCancelled || Task.isCancelled {
            await loop.close()
            throw CancellationError()
        }
        return loop
    }

    var isOnLoopThread: Bool {
        guard let thread = loopThread.withLock({ $0 }) else { return false }
        return pthread_equal(thread, pthread_self()) != 0
    }

    /// Stops the process when loop-confined state is touched from another thread, in release builds too.
    func preconditionOnLoopThread(
        _ what: @autoclosure () -> String = "loop-confined state",
        file: StaticString = #fileID, line: UInt = #line
    ) {
        precondition(isOnLoopThread, "\(what()) used off the connection's I/O thread", file: file, line: line)
    }

    // MARK: Submitting work (any thread)

    /// Runs `work` on the I/O thread; returns the connection's terminal error instead when it has ended.
    @discardableResult
    func submit(_ work: @escaping @Sendable (LoopContext) -> Void) -> SSHError? {
        let terminal = inbox.withLock { inbox -> SSHError? in
            if let error = inbox.terminalError { return error }
            inbox.work.append(work)
            return nil
        }
        if terminal == nil { wakeSignal.wake() }
        return terminal
    }

    /// Wakes the loop so it re-examines channels (a consumer made room).
    func wake() { wakeSignal.wake() }

    /// Closes the connection: pending operations fail with `connectionClosed`. Waits for the
    /// teardown and for the I/O thread to exit, so that the process may exit at once.
    func close() async {
        if requestClose() {
            try? await stopped.value()
        }
        // After the teardown the thread only returns: this wait is short.
        thread.withLock { $0 }?.join()
    }

    /// Asks the I/O thread to close the connection and returns at once; false when it had already ended.
    @discardableResult
    func requestClose() -> Bool {
        submit { context in context.requestClose() } == nil
    }

    /// Whether the connection has ended (closed or lost).
    var isClosed: Bool { inbox.withLock { $0.terminalError != nil } }

    /// Why the connection ended, once it has.
    var terminalError: SSHError? { inbox.withLock { $0.terminalError } }

    /// The server's identification string, once the handshake is done.
    var serverIdentification: String? { inbox.withLock { $0.serverIdentification } }

    /// The link's round trip is at most this, as the handshake showed it (``ConnectionEstablishment/Session/roundTripBound``).
    var roundTripBound: Duration? { inbox.withLock { $0.roundTripBound } }

    /// Waits until the loop has torn down; returns why it ended.
    func terminated() async -> SSHError {
        try? await stopped.value()
        return terminalError ?? .connectionClosed
    }

    // MARK: Reports from the I/O thread

    /// The I/O thread starts: it is the one that may reach the loop's context.
    func threadStarted() { loopThread.withLock { $0 = pthread_self() } }

    /// The session is established: callers of ``start(_:)`` go on.
    func established(serverIdentification: String?, roundTripBound: Duration) {
        inbox.withLock {
            $0.serverIdentification = serverIdentification
            $0.roundTripBound = roundTripBound
        }
        ready.complete(.success(()))
    }

    /// Establishing the session failed: ``start(_:)`` throws `error`.
    func failedToEstablish(_ error: SSHError) {
        inbox.withLock { $0.terminalError = error }
        ready.complete(.failure(error))
        stopped.complete(.success(()))
    }

    /// The work submitted since the last call, in order.
    func takeWork() -> [@Sendable (LoopContext) -> Void] {
        inbox.withLock { inbox in
            defer { inbox.work = [] }
            return inbox.work
        }
    }

    /// The connection ended with `error`: no work is accepted from now on.
    func ending(_ error: SSHError) { inbox.withLock { $0.terminalError = error } }

    /// The close stopped waiting for these stops: ``unfinishedStops`` reports them.
    func noteUnfinishedStops(_ stops: [UnfinishedStop]) { unfinished.withLock { $0 += stops } }

    /// The stops a close stopped waiting for, once it has.
    var unfinishedStops: [UnfinishedStop] { unfinished.withLock { $0 } }

    /// The teardown is done: ``close()`` and ``terminated()`` return. The wake-up pipe goes with
    /// the socket, so that a lost connection holds no descriptor while the next one is made.
    func stoppedServing() {
        wakeSignal.close()
        stopped.complete(.success(()))
    }

    /// Waits on the socket and the wake-up pipe; how many are ready (0: timed out).
    func poll(socket fd: Int32, events: Int16, timeout: Duration) throws(SystemCallError) -> (count: Int, socket: Int16, woken: Bool) {
        var fds = [pollfd(fd: fd, events: events, revents: 0), pollfd(fd: wakeSignal.readFD, events: Int16(POLLIN), revents: 0)]
        let count = try SystemCall.poll(&fds, timeout: timeout)
        if fds[1].revents != 0 { wakeSignal.drain() }
        return (count, fds[0].revents, fds[1].revents != 0)
    }
}
