import Platform

/// The open files rws needs before it starts a command. Below them the signal sources that turn
/// Ctrl+C, SIGTERM and SIGHUP into a stop of the box's processes are not all set up (Dispatch
/// cannot make the descriptors it watches them with, and says nothing): rws then ran deaf to
/// SIGTERM, its command on the box with it. So rws raises a lower soft limit up to the hard one,
/// and refuses to start when even that is too low.
enum DescriptorFloor {
    /// Measured: `rws exec` and `rws history --follow` take over their signals from 12 open files
    /// on; the rest is room for the connection, its files and the forwarded connections of
    /// `rws forward`.
    static let minimum: UInt64 = 20

    /// Why rws may not start here, or nil once the limit allows ``minimum`` open files.
    static func refusal() -> String? {
        let (soft, hard) = SystemCall.openFileLimit()
        guard soft < minimum else { return nil }
        guard SystemCall.raiseOpenFileLimit(to: min(hard, 1024)) < minimum else { return nil }
        return "only \(soft) open files are allowed here (ulimit -n), and rws needs \(minimum) to run a command and stop it "
            + "safely on Ctrl+C: raise the limit (ulimit -n 1024) and run it again"
    }
}
