import Glibc

extension SystemCall {
    /// The process's limit on open files: the soft one in force and the hard ceiling it may be
    /// raised to (`getrlimit(RLIMIT_NOFILE)`).
    public static func openFileLimit() -> (soft: UInt64, hard: UInt64) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return (.max, .max) }
        return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
    }

    /// Raises the soft limit on open files to `soft` (at most the hard limit); the limit in force after.
    @discardableResult
    public static func raiseOpenFileLimit(to soft: UInt64) -> UInt64 {
        let (current, hard) = openFileLimit()
        let wanted = min(soft, hard)
        guard wanted > current else { return current }
        return setOpenFileLimit(to: wanted) ? wanted : openFileLimit().soft
    }

    /// Sets the soft limit on open files to `soft` (at most the hard limit), lower or higher than
    /// it was; whether it took.
    @discardableResult
    public static func setOpenFileLimit(to soft: UInt64) -> Bool {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return false }
        limit.rlim_cur = min(rlim_t(soft), limit.rlim_max)
        return setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0
    }
}
