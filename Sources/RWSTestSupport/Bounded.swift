import Synchronization

/// A step of a test that must end in time. A step that does not fails the test naming itself and
/// what `context` said then (where each channel stood, say), where the suite's time limit would
/// only say that the whole test ran too long; the step is cancelled and left behind.
public enum Bounded {
    /// A step that did not end within its limit.
    public struct StepTookTooLong: Error, CustomStringConvertible {
        /// The step's name.
        public let step: String
        /// Its limit.
        public let limit: Duration
        /// What the step's context said when the limit passed.
        public let context: String

        public var description: String {
            "\(step) did not end within \(limit)" + (context.isEmpty ? "" : "; then: \(context)")
        }
    }

    /// Runs `body`; throws ``StepTookTooLong`` if it has not ended within `limit`.
    public static func step<T: Sendable>(
        _ name: String, within limit: Duration, context: @escaping @Sendable () async -> String = { "" },
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let outcome = Outcome<T>()
        return try await withCheckedThrowingContinuation { continuation in
            outcome.waiter.withLock { $0 = continuation }
            let work = Task {
                do { outcome.resume(.success(try await body())) } catch { outcome.resume(.failure(error)) }
            }
            Task {
                try? await Task.sleep(for: limit)
                guard !outcome.isResumed else { return }
                // The context may hang too (a loop stuck outside poll cannot answer).
                let said = (try? await step("asking what went on", within: .seconds(5), context)) ?? "(no answer within 5 s)"
                if outcome.resume(.failure(StepTookTooLong(step: name, limit: limit, context: said))) { work.cancel() }
            }
        }
    }

    /// The step's continuation, resumed once: by the step's end or by its limit.
    private final class Outcome<T: Sendable>: Sendable {
        let waiter = Mutex<CheckedContinuation<T, any Error>?>(nil)

        var isResumed: Bool { waiter.withLock { $0 == nil } }

        @discardableResult
        func resume(_ result: Result<T, any Error>) -> Bool {
            guard let continuation = waiter.withLock({ $0.take() }) else { return false }
            continuation.resume(with: result)
            return true
        }
    }
}
