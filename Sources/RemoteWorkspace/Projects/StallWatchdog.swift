import Synchronization

/// Calls `fire` once when ``touch()`` has not been called for `timeout`.
final class StallWatchdog: Sendable {
    private let lastActivity = Mutex(ContinuousClock.now)
    private let firedFlag = Atomic<Bool>(false)
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(timeout: Duration, fire: @escaping @Sendable () -> Void) {
        let tick = min(timeout / 4, .milliseconds(250))
        task.withLock {
            // Holds the watchdog until stopped or fired; callers always call stop().
            $0 = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: tick)
                    if ContinuousClock.now - self.lastActivity.withLock({ $0 }) >= timeout, !Task.isCancelled {
                        self.firedFlag.store(true, ordering: .sequentiallyConsistent)
                        fire()
                        return
                    }
                }
            }
        }
    }

    /// Whether the timeout passed.
    var fired: Bool { firedFlag.load(ordering: .sequentiallyConsistent) }

    /// Records activity now.
    func touch() { lastActivity.withLock { $0 = .now } }

    /// Stops watching.
    func stop() { task.withLock { $0?.cancel() } }
}
