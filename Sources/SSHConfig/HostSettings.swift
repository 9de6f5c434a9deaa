/// What a configuration file says about one host, before flags, environment and
/// defaults are considered. Values are as written: `HostName` may still hold
/// `%h`, paths may still hold `~` and `%` tokens; ``Resolution`` expands them
/// once the final user, port and host name are known.
public struct HostSettings: Sendable, Hashable, Codable {
    /// `HostName`, unexpanded.
    public var hostName: String?
    /// `User`.
    public var user: String?
    /// `Port`.
    public var port: Int?
    /// Every applicable `IdentityFile`, in order (they accumulate).
    public var identityFiles: [String] = []
    /// `IdentitiesOnly`.
    public var identitiesOnly: Bool?
    /// The files of the first applicable `UserKnownHostsFile` line.
    public var userKnownHostsFiles: [String]?
    /// `StrictHostKeyChecking`.
    public var strictHostKeyChecking: StrictHostKeyChecking?
    /// `ConnectTimeout` in seconds.
    public var connectTimeout: Int?
    /// `ServerAliveInterval` in seconds.
    public var serverAliveInterval: Int?
    /// `ServerAliveCountMax`.
    public var serverAliveCountMax: Int?
    /// `ProxyJump`: the jump hosts, first hop first; `[]` for `ProxyJump none`.
    public var proxyJump: [HostArgument]?

    /// Settings with nothing set.
    public init() {}

    /// Records `setting` unless an earlier line already set it: for single
    /// values the first obtained value wins, `IdentityFile` accumulates (each file once).
    mutating func apply(_ setting: ConfigSetting) {
        switch setting {
        case let .hostName(value): hostName = hostName ?? value
        case let .user(value): user = user ?? value
        case let .port(value): port = port ?? value
        // As OpenSSH: a file named again (the same text) is tried once, where first named.
        case let .identityFile(value): if !identityFiles.contains(value) { identityFiles.append(value) }
        case let .identitiesOnly(value): identitiesOnly = identitiesOnly ?? value
        case let .userKnownHostsFiles(value): userKnownHostsFiles = userKnownHostsFiles ?? value
        case let .strictHostKeyChecking(value): strictHostKeyChecking = strictHostKeyChecking ?? value
        case let .connectTimeout(value): connectTimeout = connectTimeout ?? value
        case let .serverAliveInterval(value): serverAliveInterval = serverAliveInterval ?? value
        case let .serverAliveCountMax(value): serverAliveCountMax = serverAliveCountMax ?? value
        case let .proxyJump(value): proxyJump = proxyJump ?? value
        }
    }
}

extension SSHConfigFile {
    /// The settings that apply to `host` (the name as the user gave it), read top
    /// to bottom as `ssh` does.
    ///
    /// - Parameters:
    ///   - host: The host as given, matched case-sensitively by `Host` lines.
    ///   - commandLineUser: A user already chosen outside the file (flag or
    ///     environment); `Match user` sees it, as `ssh` sees `user@host`.
    ///   - localUser: The local user name, for `Match user` and `Match localuser`.
    public func settings(for host: String, commandLineUser: String? = nil, localUser: String) -> HostSettings {
        var evaluator = BlockEvaluator(host: host, commandLineUser: commandLineUser, localUser: localUser)
        var active = true
        evaluator.walk(self, active: &active, neverMatch: false)
        return evaluator.settings
    }
}

/// Walks the lines of a file and its includes, tracking whether the current
/// block applies.
private struct BlockEvaluator {
    let host: String
    let commandLineUser: String?
    let localUser: String
    var settings = HostSettings()

    init(host: String, commandLineUser: String?, localUser: String) {
        self.host = host
        self.commandLineUser = commandLineUser
        self.localUser = localUser
    }

    /// `neverMatch` is set inside files included from a block that does not
    /// apply: nothing in them may apply, not even `Host *` (OpenSSH's
    /// `SSHCONF_NEVERMATCH`).
    mutating func walk(_ file: SSHConfigFile, active: inout Bool, neverMatch: Bool) {
        for line in file.lines {
            switch line.kind {
            case let .host(patterns):
                active = !neverMatch && HostPattern.hostLineMatches(patterns, name: host)
            case let .match(condition):
                active = !neverMatch && condition.holds(for: matchInput())
            case let .include(files):
                // An included file starts in the including block's state, and its
                // own Host/Match lines do not leak out of it.
                let outer = active
                for included in files {
                    walk(included, active: &active, neverMatch: neverMatch || !outer)
                    active = outer
                }
            case let .setting(setting):
                if active { settings.apply(setting) }
            }
        }
    }

    /// What `Match` sees: the host name so far (only `%h` is expanded in
    /// HostName), the user so far. A HostName with a bad token is matched as
    /// written here; resolution reports the error once the value is used.
    private func matchInput() -> MatchInput {
        let currentHost =
            settings.hostName.map { hostNameSoFar in
                (try? TokenExpansion.expand(hostNameSoFar, tokens: ["h": host], keyword: "HostName")) ?? hostNameSoFar
            } ?? host
        return MatchInput(
            originalHost: host,
            currentHost: currentHost,
            remoteUser: commandLineUser ?? settings.user ?? localUser,
            localUser: localUser)
    }
}
