import Foundation

/// Which SSH server a ``TestSSHServer`` runs, so suites can run against each with
/// `@Test(arguments: ServerKind.allCases)`.
public enum ServerKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// OpenSSH `sshd`: every exec'd command leads its own session and process group.
    case openssh
    /// Dropbear (Debian's 2022.83): the command runs in the group of dropbear's per-connection process.
    case dropbear
    /// A small server on asyncssh (Debian's python3-asyncssh 2.10, `scripts/lib/asyncssh_server.py`):
    /// a third SSH implementation, which starts every command as a session leader as OpenSSH does.
    case asyncssh

    /// OpenSSH and dropbear: the servers rws meets on real boxes, which most suites run against.
    ///
    /// Written out rather than derived, so that adding ``asyncssh`` did not change what those
    /// suites run; ``withThirdImplementation`` adds it where a suite asks for it.
    public static let allCases: [ServerKind] = [.openssh, .dropbear]

    /// ``allCases`` and asyncssh: for the suites that prove the core paths (commands, stops,
    /// terminals, files, forwarding, host keys, logins) against an SSH implementation nobody on
    /// the project wrote, so that a behaviour they show is rws's and not one server's habit.
    public static let withThirdImplementation: [ServerKind] = [.openssh, .dropbear, .asyncssh]

    /// The kind for tests that do not choose one: `RWS_TEST_SERVER` names it ("dropbear",
    /// "asyncssh"); anything else (or nothing) is OpenSSH.
    public static var `default`: ServerKind {
        ProcessInfo.processInfo.environment["RWS_TEST_SERVER"].flatMap(ServerKind.init(rawValue:)) ?? .openssh
    }

    /// The name `RWS_TEST_SERVER` takes ("openssh", "dropbear", "asyncssh"), also shown in test case names.
    public var description: String { rawValue }

    /// The server's program name: what its processes are called, and its PID file's name.
    var programName: String {
        switch self {
        case .openssh: "sshd"
        case .dropbear: "dropbear"
        case .asyncssh: "asyncssh"
        }
    }
}
