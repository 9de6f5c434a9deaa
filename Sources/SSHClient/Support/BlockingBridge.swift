import Foundation
import Synchronization

/// Runs async work from a thread that may block: the connection's I/O thread while it
/// establishes the session, before it serves anything (asking a host key callback, connecting a
/// jump host). Never call it from a task: it parks the calling thread.
enum BlockingBridge {
    /// Starts `work` in a task and waits for it until `deadline`; nil when the deadline passed
    /// first (the task is then cancelled and its result dropped).
    static func run<T: Sendable>(
        until deadline: ContinuousClock.Instant,
        _ work: @escaping @Sendable () async throws -> T
    ) -> Result<T, any Error>? {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = Task {
            let result: Result<T, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        let remaining = max(.zero, deadline - ContinuousClock.now)
        if done.wait(timeout: .now() + .milliseconds(Int(remaining.milliseconds))) == .timedOut {
            task.cancel()
            return nil
        }
        return outcome.withLock { $0 }
    }
}
