import Synchronization

/// The remote file API's state for one connection, kept on its ``ConnectionLoop``.
///
/// ``decision``, ``home`` and ``commandsRun`` are learned once and read from any thread (mutex); ``sftp`` and
/// ``sftpRefusal`` belong to the I/O thread.
final class FileAccessState: @unchecked Sendable {
    /// The transport the file calls use once decided.
    enum Decision: Sendable { case sftp, shell }

    private struct Learned {
        var decision: Decision?
        var home: String?
        var commandsRun: Bool?
    }

    private let learned = Mutex(Learned())

    /// I/O thread: the SFTP session, opened on first use and kept for the connection's life.
    var sftp: SFTPChannel?
    /// I/O thread: why the server refused the SFTP subsystem, once it has.
    var sftpRefusal: String?

    var decision: Decision? {
        get { learned.withLock { $0.decision } }
        set { learned.withLock { $0.decision = newValue } }
    }

    var home: String? {
        get { learned.withLock { $0.home } }
        set { learned.withLock { $0.home = newValue } }
    }

    /// Whether exec commands run (false for an SFTP-only account), once tried.
    var commandsRun: Bool? {
        get { learned.withLock { $0.commandsRun } }
        set { learned.withLock { $0.commandsRun = newValue } }
    }
}
