/// Waiting for a condition instead of for a fixed time: on a busy machine every moment moves,
/// and a test that looks once, right after a cue, races what it looks for.
public enum Eventually {
    /// Looks at `condition` every `interval` until it holds, for at most `limit`; returns whether it held.
    @discardableResult
    public static func holds(
        within limit: Duration = .seconds(10), every interval: Duration = .milliseconds(50), _ condition: () async throws -> Bool
    ) async throws -> Bool {
        try await value(within: limit, every: interval) { try await condition() ? true : nil } ?? false
    }

    /// Calls `look` every `interval` until it gives a value, for at most `limit`; nil if none came.
    public static func value<T>(
        within limit: Duration = .seconds(10), every interval: Duration = .milliseconds(50), _ look: () async throws -> T?
    ) async throws -> T? {
        let deadline = ContinuousClock.now + limit
        while true {
            if let found = try await look() { return found }
            guard ContinuousClock.now < deadline else { return nil }
            try await Task.sleep(for: interval)
        }
    }
}
