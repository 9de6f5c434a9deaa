import Synchronization

/// The remote file API's state for one connection, kept on its ``ConnectionLoop``.
///
/// ``decision``, ``home`` and ``commandsRun`` are learned once and read from any thread (mutex);
/// the SFTP session itself is the I/O thread's (``LoopContext/sftp``).
final class FileAccessState: Sendable {
    /// The transport the file calls use once decided.
    enum Decision: Sendable { case sftp, shell }

    private struct Learned {
        var decision: Decision?
        var home: String?
        var commandsRun: Bool?
        var linkIsSlow: Bool?
    }

    private let learned = Mutex(Learned())

    var decision: Decision? {
        get { learned.withLock { $0.decision } }
        set { learned.withLock { $0.decision = newValue } }
    }

    var home: String? {
        get { learned.withLock { $0.home } }
        set { learned.withLock { $0.home = newValue } }
    }

    /// Whether the link's round trip is ``SSHConnection/slowLinkRoundTrip`` or more, once measured.
    var linkIsSlow: Bool? {
        get { learned.withLock { $0.linkIsSlow } }
        set { learned.withLock { $0.linkIsSlow = newValue } }
    }

    /// Whether exec commands run (false for an SFTP-only account), once tried.
    var commandsRun: Bool? {
        get { learned.withLock { $0.commandsRun } }
        set { learned.withLock { $0.commandsRun = newValue } }
    }
}
