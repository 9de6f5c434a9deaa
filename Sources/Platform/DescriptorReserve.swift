import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One file descriptor kept back for libdispatch, given up the moment rws finds none left.
///
/// Swift's libdispatch on Linux traps (SIGILL, no message) when its worker-pool monitor cannot
/// open `/proc/TID/stat`, which it does once a second while work waits
/// (`scripts/lib/libdispatch_workq_emfile.c`): a process whose descriptors are used up dies of
/// it, whatever it would have done about them. rws holds `/dev/null` open and closes it when one
/// of its calls fails for want of a descriptor, which leaves the monitor one to open; rws then
/// lives to say what ran out, wait and try again. The reserve is taken back once two
/// descriptors can be opened, so taking it never leaves none.
///
/// It does not help a process whose limit was brought below the descriptors it already holds:
/// the freed number is above the limit then, and nothing can be opened at all.
public enum DescriptorReserve {
    private static let held = Atomic<Int32>(-1)

    /// Holds the reserve, unless it is held already or fewer than two descriptors are free.
    /// Costs one atomic load while it is held.
    public static func hold() {
        guard held.load(ordering: .acquiring) < 0 else { return }
        let first = Glibc.open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard first >= 0 else { return }
        let second = Glibc.open("/dev/null", O_RDONLY | O_CLOEXEC)
        _ = Glibc.close(second >= 0 ? second : first)
        guard second >= 0 else { return }
        if !held.compareExchange(expected: -1, desired: first, ordering: .acquiringAndReleasing).exchanged { _ = Glibc.close(first) }
    }

    /// Gives the reserve up if no other descriptor can be opened now: for a caller about to wait
    /// (a reconnect's delay), during which libdispatch may look before any call of rws's fails.
    public static func releaseIfNoneIsFree() {
        guard held.load(ordering: .acquiring) >= 0 else { return }
        let probe = Glibc.open("/dev/null", O_RDONLY | O_CLOEXEC)
        if probe >= 0 { _ = Glibc.close(probe) } else if errno == EMFILE || errno == ENFILE { release() }
    }

    /// Gives the reserve up; a call that failed with `EMFILE` or `ENFILE` does (``SystemCallError``).
    static func release() {
        let fd = held.exchange(-1, ordering: .acquiringAndReleasing)
        if fd >= 0 { _ = Glibc.close(fd) }
    }
}
