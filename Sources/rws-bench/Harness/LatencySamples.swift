import Foundation
import SSHClient

/// Per-operation latencies of one latency benchmark, and how they are reported.
///
/// The harness contract wants one number on the last stdout line: that is the p50 in ms. The
/// rest goes to stderr as one line `bench-latency {json}` (n, p50, p99, max, mean in ms, plus
/// the connection's poll statistics when known), which `scripts/lib/bench.py` reads. With
/// `BENCH_LATENCY_FILE` set, every sample (ms, one per line) is also written there, so that a
/// driver can pool the samples of several runs.
struct LatencySamples {
    private(set) var milliseconds: [Double] = []

    init(capacity: Int) { milliseconds.reserveCapacity(capacity) }

    mutating func append(since start: ContinuousClock.Instant) {
        milliseconds.append(seconds(since: start) * 1000)
    }

    mutating func add(_ value: Double) { milliseconds.append(value) }

    mutating func append(contentsOf other: LatencySamples) { milliseconds += other.milliseconds }

    /// Nearest-rank percentile (`fraction` 0.5 = median, 0.99 = p99).
    func percentile(_ fraction: Double) -> Double { rws_bench.percentile(milliseconds, fraction) }

    var summary: [String: Double] {
        [
            "n": Double(milliseconds.count), "p50": percentile(0.5), "p99": percentile(0.99),
            "max": milliseconds.max() ?? .nan, "mean": milliseconds.reduce(0, +) / Double(max(1, milliseconds.count)),
        ]
    }

    /// Writes the samples file and the stderr line; returns the stdout value (p50 in ms).
    func report(_ env: BenchEnvironment, extra: [String: Double] = [:]) throws -> String {
        if let path = env.values["BENCH_LATENCY_FILE"], !path.isEmpty {
            let text = milliseconds.map { String(format: "%.4f", $0) }.joined(separator: "\n") + "\n"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let fields = summary.merging(extra) { $1 }
        let data = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
        FileHandle.standardError.write(Data("bench-latency ".utf8) + data + Data("\n".utf8))
        return String(format: "%.4f", percentile(0.5))
    }
}

/// The connection's loop counters (``SSHConnection/statistics``) over a measured region,
/// reported next to the latencies: `stalledPolls` must stay 0.
struct PollCounters {
    let polls: Int
    let stalledPolls: Int
    let channelsOpened: Int

    init(_ connection: SSHConnection) {
        let statistics = connection.statistics
        (polls, stalledPolls, channelsOpened) = (statistics.polls, statistics.stalledPolls, statistics.channelsOpened)
    }

    private init(polls: Int, stalledPolls: Int, channelsOpened: Int) {
        (self.polls, self.stalledPolls, self.channelsOpened) = (polls, stalledPolls, channelsOpened)
    }

    func minus(_ earlier: PollCounters) -> PollCounters {
        PollCounters(
            polls: polls - earlier.polls, stalledPolls: stalledPolls - earlier.stalledPolls,
            channelsOpened: channelsOpened - earlier.channelsOpened)
    }

    var fields: [String: Double] {
        ["polls": Double(polls), "stalledPolls": Double(stalledPolls), "channelsOpened": Double(channelsOpened)]
    }
}
