/// A stop of a remote command that was still running on the box when ``SSHConnection/close()``
/// gave up waiting for it (after the termination grace period and 3 s more): the command's
/// processes may still run there.
public struct UnfinishedStop: Sendable, Equatable, CustomStringConvertible {
    /// The PID that leads the command's session: `kill -- -PID` on the box ends it all.
    public var pid: Int
    /// The command line, when the connection ran it.
    public var command: String?
    /// How long the close waited for the stop.
    public var waited: Duration

    /// A report as the connection makes it; public so that apps can build one in their tests.
    public init(pid: Int, command: String?, waited: Duration) {
        self.pid = pid
        self.command = command
        self.waited = waited
    }

    /// One line: which process, how long the close waited, and what to do.
    public var description: String {
        let what = command.map { "PID \(pid) (\($0.abbreviatedCommand))" } ?? "PID \(pid)"
        return "the stop of \(what) had not finished when the connection closed after \(waited.shortDescription); "
            + "it may still run on the box: kill -- -\(pid) there ends it"
    }
}
