import Platform
import Synchronization

/// A connection's link to the box: the I/O loop serving it now, the state observers see, and —
/// with a ``ReconnectPolicy`` — the re-establishing of a lost session on a fresh loop.
///
/// Work started on a loop stays with that loop and fails with it; only new work goes to the next.
final class ConnectionLink: Sendable {
    let configuration: SSHConnectionConfiguration

    private struct State {
        var loop: ConnectionLoop
        var state: ConnectionState = .connected
        /// Why the connection ended for good, once it has.
        var endError: SSHError?
        var closedByUser = false
        var reconnectTask: Task<Void, Never>?
        var observers: [Int: AsyncStream<ConnectionState>.Continuation] = [:]
        var waiters: [Int: CheckedContinuation<ConnectionLoop, any Error>] = [:]
        var nextID = 0
        /// Counters of loops that ended, so statistics cover the connection's whole life.
        var retired = ConnectionStatistics(polls: 0, stalledPolls: 0, channelsOpened: 0)
    }

    private let state: Mutex<State>

    init(configuration: SSHConnectionConfiguration, loop: ConnectionLoop) {
        self.configuration = configuration
        state = Mutex(State(loop: loop))
        watch(loop)
    }

    /// The loop serving the connection now (a dead one while reconnecting).
    var current: ConnectionLoop { state.withLock { $0.loop } }

    var connectionState: ConnectionState { state.withLock { $0.state } }

    /// Whether a lost session is re-established (a policy is set and the user has not closed).
    var reconnects: Bool { configuration.reconnect != nil && !state.withLock { $0.closedByUser || $0.endError != nil } }

    var statistics: ConnectionStatistics {
        let (loop, retired) = state.withLock { ($0.loop, $0.retired) }
        return ConnectionStatistics(
            polls: retired.polls + loop.counters.polls.load(ordering: .relaxed),
            stalledPolls: retired.stalledPolls + loop.counters.stalledPolls.load(ordering: .relaxed),
            channelsOpened: retired.channelsOpened + loop.channelsOpened.load(ordering: .relaxed))
    }

    /// The current state, then every change; ends after `.closed`.
    func states() -> AsyncStream<ConnectionState> {
        let (stream, continuation) = AsyncStream<ConnectionState>.makeStream(bufferingPolicy: .unbounded)
        let id = state.withLock { state -> Int? in
            continuation.yield(state.state)
            if case .closed = state.state { return nil }
            state.nextID += 1
            state.observers[state.nextID] = continuation
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in _ = self?.state.withLock { $0.observers.removeValue(forKey: id) } }
        return stream
    }

    /// A loop that takes work now, waiting for a reconnect (up to the policy's
    /// ``ReconnectPolicy/waitForConnection``) when the session is being re-established.
    func usableLoop() async throws -> ConnectionLoop {
        enum Route { case ready(ConnectionLoop), ended(SSHError), wait }
        let route = state.withLock { state -> Route in
            if let error = state.endError { return .ended(error) }
            if case .connected = state.state, !state.loop.isClosed { return .ready(state.loop) }
            if configuration.reconnect == nil { return .ended(state.loop.terminalError ?? .connectionClosed) }
            return .wait
        }
        switch route {
        case .ready(let loop): return loop
        case .ended(let error): throw error
        case .wait: return try await waitForLoop()
        }
    }

    private func waitForLoop() async throws -> ConnectionLoop {
        let wait = configuration.reconnect?.waitForConnection ?? .zero
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        let expiry = Task { [weak self] in
            try? await Task.sleep(for: wait)
            guard !Task.isCancelled else { return }
            self?.resumeWaiter(id, with: .failure(.connectionLost(reason: "not reconnected within \(wait.shortDescription)")))
        }
        defer { expiry.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<ConnectionLoop, SSHError>? in
                if let error = state.endError { return .failure(error) }
                if case .connected = state.state, !state.loop.isClosed { return .success(state.loop) }
                state.waiters[id] = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready.mapError { $0 as any Error }) }
        }
    }

    private func resumeWaiter(_ id: Int, with result: Result<ConnectionLoop, SSHError>) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(with: result.mapError { $0 as any Error })
    }

    // MARK: Closing

    /// Closes for good and waits until the loop is torn down.
    /// Closes the connection; returns the stops it stopped waiting for.
    func close() async -> [UnfinishedStop] {
        let loop = markClosedByUser()
        await loop.close()
        end(.connectionClosed, state: .closed(reason: nil))
        return loop.unfinishedStops
    }

    /// Asks for the close and returns at once (a dropped connection).
    func requestClose() {
        markClosedByUser().requestClose()
    }

    private func markClosedByUser() -> ConnectionLoop {
        let (loop, task) = state.withLock { state -> (ConnectionLoop, Task<Void, Never>?) in
            state.closedByUser = true
            return (state.loop, state.reconnectTask)
        }
        task?.cancel()
        return loop
    }

    // MARK: Losing and re-establishing

    private func watch(_ loop: ConnectionLoop) {
        Task.detached { [weak self] in
            let error = await loop.terminated()
            self?.loopEnded(loop, error: error)
        }
    }

    private func loopEnded(_ loop: ConnectionLoop, error: SSHError) {
        let reconnect = state.withLock { state -> Bool in
            guard state.loop === loop, !state.closedByUser, state.endError == nil, configuration.reconnect != nil else { return false }
            if case .connectionClosed = error { return false }
            state.reconnectTask = Task { [self] in await reestablish(after: error) }
            return true
        }
        if !reconnect {
            let closedByUser = state.withLock { $0.closedByUser }
            end(error, state: .closed(reason: closedByUser ? nil : error.description))
        }
    }

    private func reestablish(after error: SSHError) async {
        guard let policy = configuration.reconnect else { return }
        var reason = error.description
        var attempt = 1
        while !Task.isCancelled {
            if let limit = policy.maximumAttempts, attempt > limit {
                let final = SSHError.connectionLost(reason: "gave up after \(limit) reconnect attempts: \(reason)")
                return end(final, state: .closed(reason: final.description))
            }
            let delay = policy.delay(before: attempt)
            DescriptorReserve.releaseIfNoneIsFree()  // a link lost for want of descriptors: libdispatch's is due while we wait
            publish(.reconnecting(attempt: attempt, nextDelay: delay, reason: reason))
            try? await Task.sleep(for: delay)
            if Task.isCancelled { return }
            publish(.connecting(attempt: attempt))
            do {
                let loop = try await ConnectionLoop.start(configuration)
                if adopt(loop) { return } else { return await loop.close() }
            } catch {
                reason = (error as? SSHError)?.description ?? "\(error)"
                configuration.logger.info("reconnect failed", metadata: ["attempt": "\(attempt)", "error": "\(reason)"])
                attempt += 1
            }
        }
    }

    /// Makes `loop` the current one and hands it to everyone waiting; false when closed meanwhile.
    private func adopt(_ loop: ConnectionLoop) -> Bool {
        let adopted = state.withLock {
            state -> (waiters: [CheckedContinuation<ConnectionLoop, any Error>], observers: [AsyncStream<ConnectionState>.Continuation])? in
            guard !state.closedByUser, state.endError == nil else { return nil }
            let old = state.loop
            state.retired.polls += old.counters.polls.load(ordering: .relaxed)
            state.retired.stalledPolls += old.counters.stalledPolls.load(ordering: .relaxed)
            state.retired.channelsOpened += old.channelsOpened.load(ordering: .relaxed)
            state.loop = loop
            state.state = .connected
            state.reconnectTask = nil
            defer { state.waiters = [:] }
            return (Array(state.waiters.values), Array(state.observers.values))
        }
        guard let adopted else { return false }
        watch(loop)
        adopted.observers.forEach { $0.yield(.connected) }
        adopted.waiters.forEach { $0.resume(returning: loop) }
        return true
    }

    private func publish(_ new: ConnectionState) {
        let observers = state.withLock { state -> [AsyncStream<ConnectionState>.Continuation] in
            guard state.endError == nil else { return [] }
            state.state = new
            return Array(state.observers.values)
        }
        observers.forEach { $0.yield(new) }
    }

    /// The connection ended for good: observers see `final` and finish, waiters fail with `error`.
    private func end(_ error: SSHError, state final: ConnectionState) {
        let ended = state.withLock {
            state -> (waiters: [CheckedContinuation<ConnectionLoop, any Error>], observers: [AsyncStream<ConnectionState>.Continuation])? in
            guard state.endError == nil else { return nil }
            state.endError = error
            state.state = final
            defer {
                state.waiters = [:]
                state.observers = [:]
            }
            return (Array(state.waiters.values), Array(state.observers.values))
        }
        guard let ended else { return }
        for observer in ended.observers {
            observer.yield(final)
            observer.finish()
        }
        ended.waiters.forEach { $0.resume(throwing: error) }
    }
}
