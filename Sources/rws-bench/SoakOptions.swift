import Foundation

/// `rws-bench soak [--duration SECONDS] [--quick] [--execs N] [--reads N] [--sample SECONDS]`.
///
/// Defaults: 10 minutes, 20,000 execs, 2,000 SFTP reads, a sample every 10 s. `--quick` is
/// one minute with the counts scaled to it (2,000 and 200) and a sample every 2 s.
struct SoakOptions: Sendable {
    var duration = 600.0
    var execs: Int?
    var reads: Int?
    var sampleInterval: Double?
    var bounds = GrowthBounds()

    var execCount: Int { execs ?? Int((20_000 * duration / 600).rounded()) }
    var readCount: Int { reads ?? Int((2_000 * duration / 600).rounded()) }
    var interval: Double { sampleInterval ?? (duration >= 300 ? 10 : 2) }
    /// The resources sampled at the end of this warm-up are the baseline growth is judged against.
    var warmup: Double { min(30, duration / 10) }

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
            default: throw BenchFailure("unknown soak option \(flag)")
            }
        }
    }
}
