import Foundation

/// `rws-bench soak [--duration SECONDS] [--quick] [--execs N] [--reads N] [--sample SECONDS]
/// [--cut-every SECONDS] [--cut-length SECONDS] [--window SECONDS] [--latency-tolerance FRACTION]`.
///
/// Defaults: 10 minutes, 20,000 execs, 2,000 SFTP reads, a sample every 10 s, no link cuts,
/// latency windows of 60 s. `--quick` is one minute with the counts scaled to it (2,000 and
/// 200) and a sample every 2 s. `--cut-every` puts a ``FaultProxy`` between client and server
/// and stops all traffic through it for `--cut-length` seconds (default 8) at that period.
struct SoakOptions: Sendable {
    var duration = 600.0
    var execs: Int?
    var reads: Int?
    var sampleInterval: Double?
    var bounds = GrowthBounds()
    /// Seconds between link cuts; 0: no proxy, no cuts.
    var cutEvery = 0.0
    var cutLength = 8.0
    var windowLength = 60.0
    /// When set, the run fails unless p50 and p99 of the last latency span are within this
    /// fraction of the first (0.1: 10 %).
    var latencyTolerance: Double?

    var execCount: Int { execs ?? Int((20_000 * duration / 600).rounded()) }
    var readCount: Int { reads ?? Int((2_000 * duration / 600).rounded()) }
    var interval: Double { sampleInterval ?? (duration >= 300 ? 10 : 2) }
    /// The resources sampled at the end of this warm-up are the baseline growth is judged against.
    var warmup: Double { min(30, duration / 10) }
    /// The start and the end whose latencies are compared: 10 minutes, or a quarter of a shorter run.
    var latencySpan: Double { min(600, (duration - warmup) / 4) }

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            if flag == "--quick" {
                duration = 60
                continue
            }
            guard let text = rest.popFirst(), let value = Double(text), value > 0 else {
                throw BenchFailure("\(flag) needs a positive number")
            }
            switch flag {
            case "--duration": duration = value
            case "--execs": execs = Int(value)
            case "--reads": reads = Int(value)
            case "--sample": sampleInterval = value
            case "--cut-every": cutEvery = value
            case "--cut-length": cutLength = value
            case "--window": windowLength = value
            case "--latency-tolerance": latencyTolerance = value
            default: throw BenchFailure("unknown soak option \(flag)")
            }
        }
    }
}
