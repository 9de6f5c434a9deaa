import Foundation
import Platform

/// Facts about the local machine and user that configuration resolution needs:
/// `~` and `%d` expand to ``home``, `%u` and the default remote user come from
/// ``userName``. Passed in explicitly so that parsing and tests never read the
/// real environment or the real `~/.ssh`.
public struct LocalContext: Sendable, Hashable, Codable {
    /// The local home directory (`~`, `%d`).
    public var home: String
    /// The local user name (`%u`, `Match localuser`, default remote user).
    public var userName: String
    /// The local numeric user id (`%i`).
    public var userID: UInt32
    /// The local host name as `gethostname` gives it (`%l`; `%L` is the part
    /// before the first dot).
    public var hostName: String

    /// Creates a context from explicit values.
    public init(home: String, userName: String, userID: UInt32, hostName: String) {
        self.home = home
        self.userName = userName
        self.userID = userID
        self.hostName = hostName
    }

    /// The context of the running process. Like `ssh`, the home directory and
    /// user name come from the password database, not from `$HOME`; `$HOME` and
    /// `$USER` are only used when the database has no entry.
    ///
    /// - Parameters:
    ///   - environment: The variables to fall back on (`HOME`, `USER`).
    ///   - homeFromEnvironment: Take the home directory from a non-empty `$HOME` in `environment`
    ///     instead (as `rws` does), so a sandboxed `HOME` never reads the real `~/.ssh`.
    public static func current(
        environment: [String: String] = ProcessInfo.processInfo.environment, homeFromEnvironment: Bool = false
    ) -> LocalContext {
        let uid = SystemCall.userID
        var home = environment["HOME"] ?? "/"
        var user = environment["USER"] ?? String(uid)
        if let entryHome = SystemCall.passwdHome, let entryUser = SystemCall.userName {
            home = entryHome
            user = entryUser
        }
        let host = (try? SystemCall.hostName()) ?? "localhost"
        if homeFromEnvironment, let sandbox = environment["HOME"], !sandbox.isEmpty { home = sandbox }
        return LocalContext(home: home, userName: user, userID: uid, hostName: host)
    }
}
