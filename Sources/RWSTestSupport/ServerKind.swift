import Foundation

/// Which SSH server a ``TestSSHServer`` runs, so suites can run against each with
/// `@Test(arguments: ServerKind.allCases)`.
public enum ServerKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// OpenSSH `sshd`: every exec'd command leads its own session and process group.
    case openssh
    /// Dropbear (Debian's 2022.83): the command runs in the group of dropbear's per-connection process.
    case dropbear

    /// The kind for tests that do not choose one: `RWS_TEST_SERVER=dropbear` runs them against
    /// dropbear, anything else (or nothing) against OpenSSH.
    public static var `default`: ServerKind {
        ProcessInfo.processInfo.environment["RWS_TEST_SERVER"].flatMap(ServerKind.init(rawValue:)) ?? .openssh
    }

    public var description: String { rawValue }
}
