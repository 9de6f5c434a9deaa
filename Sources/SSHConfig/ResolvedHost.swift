import Foundation

/// The name of a resolved setting: the lower-case key `ssh -G` prints for it.
public enum SettingKey: String, Sendable, Hashable, Codable, CodingKeyRepresentable, CaseIterable {
    /// The host as given.
    case host
    /// The name or address connected to.
    case hostname
    /// The remote user.
    case user
    /// The port.
    case port
    /// The identity file candidates.
    case identityfile
    /// Whether only the listed identities are offered.
    case identitiesonly
    /// The known-hosts files.
    case userknownhostsfile
    /// The host key policy.
    case stricthostkeychecking
    /// The connection timeout.
    case connecttimeout
    /// The keep-alive interval.
    case serveraliveinterval
    /// The keep-alive count.
    case serveralivecountmax
    /// The agent socket.
    case identityagent
    /// The jump hosts.
    case proxyjump
}

/// Where a resolved setting came from, highest precedence first.
public enum SettingOrigin: String, Sendable, Hashable, Codable {
    /// A command-line flag (including the user and port inside `--host`).
    case flag
    /// An `RWS_*` environment variable (or `SSH_AUTH_SOCK` for the agent).
    case environment
    /// The OpenSSH configuration file.
    case configFile = "config-file"
    /// rws's built-in default.
    case `default`
}

/// How the SSH agent takes part in authentication.
public enum AgentPolicy: String, Sendable, Hashable, Codable {
    /// No agent: `SSH_AUTH_SOCK` is not set.
    case unavailable
    /// Every key the agent holds may be offered, before the identity files.
    case allKeys = "all-keys"
    /// `IdentitiesOnly yes`: only agent keys whose public key matches one of the
    /// identity files (or its `.pub`) may be offered.
    case listedIdentitiesOnly = "listed-identities-only"
}

/// The settings to connect to one host with, after flags, environment,
/// configuration file and defaults have been combined and every path expanded.
public struct ResolvedHost: Sendable, Hashable, Codable {
    /// The host as given (the config alias).
    public var host: String
    /// The name or address to connect to (`HostName`, lower-cased as `ssh` does).
    public var hostName: String
    /// The remote user.
    public var user: String
    /// The TCP port.
    public var port: Int
    /// Identity file candidates, expanded, in the order they are tried. Files
    /// that do not exist are kept here; see ``existingIdentityFiles(fileExists:)``.
    public var identityFiles: [String]
    /// Whether only ``identityFiles`` may be offered (see ``agentPolicy``).
    public var identitiesOnly: Bool
    /// Known-hosts files, expanded.
    public var userKnownHostsFiles: [String]
    /// The host key policy.
    public var strictHostKeyChecking: StrictHostKeyChecking
    /// Connection timeout in seconds; `nil` leaves it to the operating system.
    public var connectTimeout: Int?
    /// Keep-alive interval in seconds; 0 sends none.
    public var serverAliveInterval: Int
    /// Unanswered keep-alives before the connection is dropped.
    public var serverAliveCountMax: Int
    /// The agent socket (`SSH_AUTH_SOCK`), if set.
    public var agentSocket: String?
    /// Jump hosts (`ProxyJump`, `-J`), first hop first, as written; empty for a direct
    /// connection. Each is resolved as a host of its own when connecting.
    public var proxyJump: [HostArgument] = []
    /// Where each setting came from.
    public var origins: [SettingKey: SettingOrigin]
    /// The configuration files that were read, outermost first.
    public var configFiles: [String]
    /// Warnings from the configuration files.
    public var warnings: [SSHConfigWarning]

    /// The identity files that exist, in order: what to try when connecting
    /// (`ssh` also skips missing identity files silently).
    public func existingIdentityFiles(
        fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> [String] {
        identityFiles.filter(fileExists)
    }

    /// How the agent takes part, from ``agentSocket`` and ``identitiesOnly``.
    public var agentPolicy: AgentPolicy {
        guard agentSocket != nil else { return .unavailable }
        return identitiesOnly ? .listedIdentitiesOnly : .allKeys
    }
}
