import Foundation

/// Work that blocks (waiting for a child to end, a socket call) done on a thread of its own.
///
/// Swift's cooperative pool has one thread per core: two here. A test that blocks one of them
/// for seconds stalls every other test's tasks, so a connection that noticed its dead peer in
/// 3 s was heard of 23 s later. Blocking waits go through here instead.
public enum Blocking {
    /// Runs `body` on a new thread and returns (or throws) what it did.
    @discardableResult
    public static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }
}
