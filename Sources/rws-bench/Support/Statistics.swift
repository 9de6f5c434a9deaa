import Foundation

/// Nearest-rank percentile of `samples` (`fraction` 0.5 = median, 0.99 = p99); nan when empty.
func percentile(_ samples: [Double], _ fraction: Double) -> Double {
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((fraction * Double(sorted.count)).rounded(.up))
    return sorted[min(sorted.count, max(1, rank)) - 1]
}

/// The nearest-rank median.
func median(_ samples: [Double]) -> Double { percentile(samples, 0.5) }

/// Samples in seconds as the cells `p50 | p99 | max` of a Markdown row, in `unit`s (1000: ms).
func percentileCells(_ samples: [Double], unit: Double = 1000, digits: Int = 1) -> String {
    [percentile(samples, 0.5), percentile(samples, 0.99), samples.max() ?? .nan]
        .map { String(format: "%.\(digits)f", $0 * unit) }.joined(separator: " | ")
}
