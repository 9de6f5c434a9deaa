import Foundation
import Synchronization

/// Every timed operation of a soak, by kind and by when it started, so that latency can be
/// compared between the start and the end of the run. Operations that began during a link cut
/// in the 2 s before it or in the ``settle`` time after it are left out: they measure the cut, not the connection.
///
/// The record is allocated and touched in full before the run, so that the RSS a soak measures
/// after its warm-up is the connection's own: a record grown as the run goes would read as a leak.
final class SoakLatencies: Sendable {
    enum Kind: String, CaseIterable, Sendable {
        case exec, shellEcho = "shell_echo", sftpStat = "sftp_stat"
    }

    /// How long after a cut ends operations still count as disturbed by it.
    static let settle = 10.0

    private struct State {
        var samples: [Kind: [(at: Double, ms: Double)]]
        var cuts: [(from: Double, to: Double)] = []
    }

    private let state: Mutex<State>

    /// A record with room for `expected` samples of each kind (more still fit, by growing).
    init(expected: [Kind: Int]) {
        var samples: [Kind: [(at: Double, ms: Double)]] = [:]
        for kind in Kind.allCases {
            let count = expected[kind] ?? 0
            var record = [(at: Double, ms: Double)](repeating: (0, 0), count: count)
            record.removeAll(keepingCapacity: true)
            samples[kind] = record
        }
        state = Mutex(State(samples: samples))
    }

    func add(_ kind: Kind, at seconds: Double, milliseconds: Double) {
        state.withLock { $0.samples[kind, default: []].append((seconds, milliseconds)) }
    }

    func cut(from: Double, to: Double) { state.withLock { $0.cuts.append((from, to)) } }

    /// The undisturbed samples of `kind` that started in `range`.
    func samples(_ kind: Kind, in range: Range<Double>) -> LatencySamples {
        state.withLock { state in
            var result = LatencySamples(capacity: 0)
            for sample in state.samples[kind, default: []] where range.contains(sample.at) {
                let disturbed = state.cuts.contains { sample.at >= $0.from - 2 && sample.at < $0.to + Self.settle }
                if !disturbed { result.add(sample.ms) }
            }
            return result
        }
    }

    /// One line per kind for the window `range`, for the log: `soak-window t=... exec n= p50= p99= ...`.
    func windowLine(_ range: Range<Double>) -> String {
        let parts = Kind.allCases.map { kind in
            let window = samples(kind, in: range)
            return String(
                format: "%@ n=%d p50=%.3f p99=%.3f", kind.rawValue, window.milliseconds.count, window.percentile(0.5),
                window.percentile(0.99))
        }
        return String(format: "soak-window t=%.0f-%.0fs ", range.lowerBound, range.upperBound) + parts.joined(separator: " | ")
    }

    /// p50 and p99 of the first and the last `span` seconds after `warmup`, their ratios, and the
    /// problems when the end is more than `tolerance` slower than the start.
    func startVersusEnd(
        warmup: Double, duration: Double, span: Double, tolerance: Double
    ) -> (summary: [String: Any], problems: [String]) {
        var summary: [String: Any] = ["spanSeconds": span, "tolerance": tolerance]
        var problems: [String] = []
        for kind in Kind.allCases {
            let start = samples(kind, in: warmup..<(warmup + span))
            let end = samples(kind, in: (duration - span)..<duration)
            var entry: [String: Any] = ["start": start.summary, "end": end.summary]
            for percentile in [0.5, 0.99] {
                let name = percentile == 0.5 ? "p50" : "p99"
                let ratio = end.percentile(percentile) / start.percentile(percentile)
                entry["\(name)Ratio"] = ratio
                if !(ratio <= 1 + tolerance) {
                    problems.append(
                        String(format: "%@ %@ at the end is %.2fx the start (bound %.2fx)", kind.rawValue, name, ratio, 1 + tolerance))
                }
            }
            summary[kind.rawValue] = entry
        }
        return (summary, problems)
    }
}
