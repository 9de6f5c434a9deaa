import Foundation

/// Seconds since `start`, as a Double.
func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// Seconds `body` took (for work that blocks its thread: a process run to its end, a parse).
func clocked(_ body: () throws -> Void) rethrows -> Double {
    let started = ContinuousClock.now
    try body()
    return seconds(since: started)
}

/// `runs` timings of `body`, in seconds.
func timed(_ runs: Int, _ body: () async throws -> Void) async rethrows -> [Double] {
    var samples: [Double] = []
    for _ in 0..<runs {
        let started = ContinuousClock.now
        try await body()
        samples.append(seconds(since: started))
    }
    return samples
}

/// What `body` returns, and the seconds it took.
func measured<T>(_ body: () async throws -> T) async rethrows -> (value: T, seconds: Double) {
    let started = ContinuousClock.now
    let value = try await body()
    return (value, seconds(since: started))
}

/// Fails the run with a message: the harness counts a non-zero exit as a failed sample.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
