import Foundation

/// How much of a long loop a test runs: a sample in the suite (`scripts/test`), all of it under
/// `RWS_SOAK=full` (`scripts/soak-tests`). The sample still makes the failure it looks for
/// likely; the full run is what a change to the code under the loop is checked with.
public enum SoakLength {
    /// Whether `RWS_SOAK=full` asks for the whole loops.
    public static var isFull: Bool { ProcessInfo.processInfo.environment["RWS_SOAK"] == "full" }

    /// `full` repetitions under `RWS_SOAK=full`, else `sample`.
    public static func count(full: Int, sample: Int) -> Int { isFull ? full : sample }

    /// `full` under `RWS_SOAK=full`, else `sample`.
    public static func duration(full: Duration, sample: Duration) -> Duration { isFull ? full : sample }
}
