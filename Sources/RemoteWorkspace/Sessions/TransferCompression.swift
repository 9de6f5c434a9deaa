import Synchronization

/// How session bytes cross the link when a session is loaded.
public enum TransferCompression: Sendable, Equatable {
    /// Measured per connection: the first load of a big session times two raw reads of its
    /// start (32 KiB, then 256 KiB: the difference leaves the round trip out; a difference under
    /// 40 ms, as much the box's scheduling as the link, is timed again with 4 MiB in place of
    /// the 256 KiB, and that pair counts; within twice 40 MB/s either way a second such pair is
    /// timed, room permitting, and the faster counts), and the link's rate
    /// picks raw bytes (≥ 40 MB/s: gzip would be the bottleneck), `gzip -1` (≥ 7 MB/s) or
    /// `gzip -6` (slower links, where the better ratio wins). Logged at `-v`.
    case automatic
    /// `gzip -c -LEVEL` on the box (when it has gzip), inflated here.
    case gzip(level: Int)
    /// Raw bytes.
    case none
}

/// The measured rate of one connection's link, kept for the loads that follow.
final class LinkRate: Sendable {
    private let bytesPerSecond = Mutex<Double?>(nil)

    /// The last measurement, if any.
    var measured: Double? { bytesPerSecond.withLock { $0 } }

    func record(_ rate: Double) { bytesPerSecond.withLock { $0 = rate } }

    /// Bytes of the two probe reads: the second minus the first is what is timed.
    static let probes = (first: 32_768, second: 32_768 + 262_144)

    /// A timed difference shorter than this says as much about the box's scheduling as about
    /// the link (starting a remote command varies by milliseconds, tens on a busy box): the
    /// next pair is timed with ``confirmingStretch`` instead.
    static let ambiguous = Duration.milliseconds(40)

    /// The extra bytes of the confirming pair's second read: ~100 ms at 40 MB/s, where the two
    /// choices meet, so jitter of a few tens of milliseconds cannot move a link across.
    static let confirmingStretch = 4 << 20

    /// Whether `rate` is within twice the 40 MB/s line either way: a single confirming pair there
    /// may have been halved by a stall of the box (seen on a CI box: 30 MB/s measured on a link
    /// that moved 60), so a second is timed.
    static func isNearTheLine(_ rate: Double) -> Bool { rate >= line / 2 && rate < line * 2 }

    /// Where raw bytes start to beat `gzip -1`: 40 MB/s.
    static let line = 40_000_000.0

    /// Files smaller than this are not worth probing: compressed at level 1 (cheap everywhere).
    static let probeThreshold = 4 << 20

    /// The gzip level for a link of `rate` bytes per second, nil for raw bytes.
    static func level(for rate: Double) -> Int? {
        if rate >= line { return nil }
        return rate >= 7_000_000 ? 1 : 6
    }

    /// `12.3 MB/s`.
    static func describe(_ rate: Double) -> String {
        rate.isFinite ? "\((rate / 100_000).rounded() / 10) MB/s" : "too fast to time"
    }
}
