import Synchronization

/// Counters of one connection's I/O loop, for diagnostics, benchmarks and tests.
///
/// ``stalledPolls`` is the one to watch: it counts waits that ran to their timeout although a
/// reply was already in the socket and an operation was waiting for it. It should stay 0.
public struct ConnectionStatistics: Sendable, Equatable {
    /// How many times the I/O loop waited in `poll`.
    public var polls: Int
    /// How many of those waits ran to their timeout while unread bytes sat in the socket and an
    /// operation waited on the server: each one is a stall of up to a second.
    public var stalledPolls: Int
    /// How many channels the server opened on this connection so far.
    public var channelsOpened: Int
}

/// The loop's side of ``ConnectionStatistics``: written by the I/O thread, read from any thread.
final class LoopCounters: Sendable {
    let polls = Atomic<Int>(0)
    let stalledPolls = Atomic<Int>(0)
}
