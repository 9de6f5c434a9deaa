/// Waiting for a condition instead of for a fixed time: on a busy machine every moment moves,
/// and a test that looks once, right after a cue, races what it looks for.
public enum Eventually {
    /// Looks at `condition` every `interval` until it holds, for at most `limit`; returns whether it held.
    @discardableResult
    public static func holds(
        within limit: Duration = .seconds(10), every interval: Duration = .milliseconds(50), _ condition: () async throws -> Bool
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while try await !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: interval)
        }
        return true
    }
}
