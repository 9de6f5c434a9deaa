import Foundation
import Synchronization

/// Runs async work from a thread that may block: the connection's I/O thread while it
/// establishes the session, before it serves anything (asking a host key callback, connecting a
/// jump host). Never call it from a task: it parks the calling thread.
enum BlockingBridge {
    /// Starts `work` in a task and waits for it until `deadline`; nil when the deadline passed
    /// first (the task is then cancelled and its result dropped).
    ///
    /// With `cancellation`, the caller giving up cancels the task and ends the wait at once: the
    /// result is then nil too, and `cancellation.check()` tells the two apart.
    static func run<T: Sendable>(
        until deadline: ContinuousClock.Instant,
        cancellation: EstablishmentCancellation? = nil,
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
        let waited = {
            done.wait(timeout: .now() + .milliseconds(Int(remaining.milliseconds)))
        }
        let ended = cancellation.map { $0.whileWaiting(onCancel: { done.signal() }, waited) } ?? waited()
        if ended == .timedOut || cancellation?.isCancelled == true {
            task.cancel()
            return nil
        }
        return outcome.withLock { $0 }
    }
}
