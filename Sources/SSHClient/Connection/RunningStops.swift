/// The stops of remote commands whose kill script runs now, so that a close that stops waiting
/// for them can say which (``UnfinishedStop``). Loop-confined, in ``LoopContext``.
struct RunningStops {
    private var running: [Int: (pid: Int, command: String?)] = [:]
    private var nextToken = 0

    /// Notes a stop that begins; its token ends it.
    mutating func begin(pid: Int, command: String?) -> Int {
        nextToken += 1
        running[nextToken] = (pid, command)
        return nextToken
    }

    /// The stop of `token` ended.
    mutating func end(_ token: Int) {
        running.removeValue(forKey: token)
    }

    /// The stops still running, by PID, as reported after waiting `waited`.
    func unfinished(after waited: Duration) -> [UnfinishedStop] {
        running.sorted { $0.key < $1.key }.map { UnfinishedStop(pid: $0.value.pid, command: $0.value.command, waited: waited) }
    }
}
