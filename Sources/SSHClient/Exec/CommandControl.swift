/// What a ``RemoteCommand`` asks of whatever runs its command: an exec channel on a connection's
/// I/O thread (`CommandHandle`), or a process on this machine (`LocalProcessControl`).
protocol CommandControl: AnyObject, Sendable {
    /// Writes `bytes` to the command's stdin; returns when they were taken.
    func write(_ bytes: [UInt8]) async throws
    /// Sends EOF on stdin, after everything written before.
    func closeInput() async throws
    /// Stops the command and every process it started; its output ends with `reason`.
    func stop(_ reason: SSHError)
}
