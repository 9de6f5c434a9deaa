import Foundation

/// Latencies of a whole long run in constant memory: counts in logarithmic buckets 1 % wide,
/// so that a soak's own record does not grow with its length and blur the RSS it measures.
/// Percentiles are the upper bound of their bucket (at most 1 % above the exact value); the
/// maximum is exact.
struct LatencyHistogram {
    /// Bucket `i` holds values in `[floor·1.01^i, floor·1.01^(i+1))` ms; below `floor`, bucket 0.
    private static let floor = 0.001
    private static let growth = 1.01
    /// 1 µs · 1.01^2400 ≈ 23,000 s: every latency a soak can see.
    private static let bucketCount = 2400

    private var counts = [Int](repeating: 0, count: bucketCount)
    private(set) var count = 0
    private(set) var maximum = 0.0
    private var total = 0.0

    mutating func add(_ milliseconds: Double) {
        let ratio = max(milliseconds, Self.floor) / Self.floor
        let index = min(Self.bucketCount - 1, Int(log(ratio) / log(Self.growth)))
        counts[index] += 1
        count += 1
        total += milliseconds
        maximum = max(maximum, milliseconds)
    }

    /// Nearest-rank percentile (`fraction` 0.5 = median), as its bucket's upper bound.
    func percentile(_ fraction: Double) -> Double {
        guard count > 0 else { return .nan }
        let rank = min(count, max(1, Int((fraction * Double(count)).rounded(.up))))
        var seen = 0
        for (index, bucket) in counts.enumerated() {
            seen += bucket
            if seen >= rank { return min(maximum, Self.floor * pow(Self.growth, Double(index + 1))) }
        }
        return maximum
    }

    /// The same fields as ``LatencySamples/summary``.
    var summary: [String: Double] {
        [
            "n": Double(count), "p50": percentile(0.5), "p99": percentile(0.99), "max": count > 0 ? maximum : .nan,
            "mean": total / Double(max(1, count)),
        ]
    }
}
