/// Combines command-line flags, `RWS_*` environment variables, the OpenSSH
/// configuration file and defaults into a ``ResolvedHost``.
///
/// Precedence, highest first: flags > environment > configuration file >
/// defaults. A list (identity files, known-hosts files) comes whole from the
/// first source that gives one; lists from different sources are not merged.
public enum Resolution {
    /// Default identity file candidates, in the order they are tried.
    public static let defaultIdentityFiles = ["~/.ssh/id_ed25519", "~/.ssh/id_ecdsa"]
    /// Default known-hosts file.
    public static let defaultKnownHostsFiles = ["~/.ssh/known_hosts"]
    /// Default port.
    public static let defaultPort = 22
    /// Default `ServerAliveCountMax`, as `ssh`.
    public static let defaultServerAliveCountMax = 3

    /// The configuration file to read: `flags.configFile`, else `RWS_SSH_CONFIG`,
    /// else `~/.ssh/config`. `required` is false only for the default file,
    /// which may be missing (as for `ssh`).
    public static func configFilePath(
        flags: SettingOverrides, environment: [String: String], local: LocalContext
    ) -> (path: String, required: Bool) {
        if let path = flags.configFile ?? environment["RWS_SSH_CONFIG"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return (TokenExpansion.expandTilde(path, home: local.home), true)
        }
        return (local.home + "/.ssh/config", false)
    }

    /// Reads the configuration file chosen by ``configFilePath(flags:environment:local:)``
    /// and resolves the host. This is what `rws --host NAME` does.
    public static func resolve(
        flags: SettingOverrides, environment: [String: String], local: LocalContext
    ) throws -> ResolvedHost {
        let (path, required) = configFilePath(flags: flags, environment: environment, local: local)
        let config = try SSHConfigFile.load(path: path, home: local.home, required: required)
        return try resolve(flags: flags, environment: environment, config: config, local: local)
    }

    /// Resolves the host named by `flags.host` (else `RWS_HOST`) against an
    /// already parsed `config`.
    public static func resolve(
        flags: SettingOverrides, environment: [String: String], config: SSHConfigFile, local: LocalContext
    ) throws -> ResolvedHost {
        let flagLayer = flags.withHostParts()
        let envLayer = try SettingOverrides(environment: environment).withHostParts()
        guard let target = flags.host ?? envLayer.host else { throw SSHConfigError.missingHost }
        let file = config.settings(
            for: target.host, commandLineUser: flagLayer.user ?? envLayer.user, localUser: local.userName)
        var chooser = Chooser(flag: flagLayer, env: envLayer, file: file)

        let hostName = try resolvedHostName(file.hostName, host: target.host)
        chooser.origins[.hostname] = file.hostName == nil ? .default : .configFile
        let user = chooser.pick(.user, \.user, \.user, default: local.userName)
        let port = chooser.pick(.port, \.port, \.port, default: defaultPort)
        let tokens = TokenExpansion.pathTokens(
            local: local, hostName: hostName, originalHost: target.host, port: port, remoteUser: user)
        func expanded(_ paths: [String], _ keyword: String) throws -> [String] {
            try paths.map { try TokenExpansion.expandPath($0, tokens: tokens, home: local.home, keyword: keyword) }
        }
        let agentSocket = environment["SSH_AUTH_SOCK"].flatMap { $0.isEmpty ? nil : $0 }
        chooser.origins[.host] = flags.host == nil ? .environment : .flag
        chooser.origins[.identityagent] = agentSocket == nil ? .default : .environment
        return ResolvedHost(
            host: target.host,
            hostName: hostName,
            user: user,
            port: port,
            identityFiles: try expanded(
                chooser.pickList(.identityfile, \.identityFiles, \.identityFiles, default: defaultIdentityFiles),
                "IdentityFile"),
            identitiesOnly: chooser.pick(.identitiesonly, \.identitiesOnly, \.identitiesOnly, default: false),
            userKnownHostsFiles: try expanded(
                chooser.pickList(
                    .userknownhostsfile, \.userKnownHostsFiles, { $0.userKnownHostsFiles ?? [] },
                    default: defaultKnownHostsFiles),
                "UserKnownHostsFile"),
            strictHostKeyChecking: chooser.pick(
                .stricthostkeychecking, \.strictHostKeyChecking, \.strictHostKeyChecking, default: .ask),
            connectTimeout: chooser.pickIfGiven(.connecttimeout, \.connectTimeout, \.connectTimeout),
            serverAliveInterval: chooser.pick(.serveraliveinterval, \.serverAliveInterval, \.serverAliveInterval, default: 0),
            serverAliveCountMax: chooser.pick(
                .serveralivecountmax, \.serverAliveCountMax, \.serverAliveCountMax, default: defaultServerAliveCountMax),
            agentSocket: agentSocket,
            proxyJump: chooser.pick(.proxyjump, \.proxyJump, \.proxyJump, default: []),
            origins: chooser.origins,
            configFiles: config.filesRead,
            warnings: config.warnings)
    }

    /// `HostName` with `%h` expanded (the only token `ssh` allows there), or
    /// the host as given; lower-cased, as `ssh` does.
    static func resolvedHostName(_ configured: String?, host: String) throws -> String {
        guard let configured else { return host.lowercased() }
        return try TokenExpansion.expand(configured, tokens: ["h": host], keyword: "HostName").lowercased()
    }
}

private extension SettingOverrides {
    /// The overrides with the user and port inside ``host`` filled in where no
    /// explicit user or port was given (an explicit `--user`/`--port` wins, as
    /// `ssh -l` wins over `user@host`).
    func withHostParts() -> SettingOverrides {
        var copy = self
        copy.user = user ?? host?.user
        copy.port = port ?? host?.port
        return copy
    }
}

/// Picks each setting from the first source that has it and records where it came from.
private struct Chooser {
    let flag: SettingOverrides
    let env: SettingOverrides
    let file: HostSettings
    var origins: [SettingKey: SettingOrigin] = [:]

    mutating func pick<T>(
        _ key: SettingKey, _ override: KeyPath<SettingOverrides, T?>, _ configured: KeyPath<HostSettings, T?>,
        default fallback: T
    ) -> T {
        pickIfGiven(key, override, configured) ?? fallback
    }

    /// The value from the first source that gives one, or `nil` (origin: default).
    mutating func pickIfGiven<T>(
        _ key: SettingKey, _ override: KeyPath<SettingOverrides, T?>, _ configured: KeyPath<HostSettings, T?>
    ) -> T? {
        let candidates: [(T?, SettingOrigin)] = [
            (flag[keyPath: override], .flag), (env[keyPath: override], .environment),
            (file[keyPath: configured], .configFile),
        ]
        for case let (value?, origin) in candidates {
            origins[key] = origin
            return value
        }
        origins[key] = .default
        return nil
    }

    mutating func pickList(
        _ key: SettingKey, _ override: KeyPath<SettingOverrides, [String]>, _ configured: (HostSettings) -> [String],
        default fallback: [String]
    ) -> [String] {
        let candidates: [([String], SettingOrigin)] = [
            (flag[keyPath: override], .flag), (env[keyPath: override], .environment), (configured(file), .configFile),
        ]
        for (value, origin) in candidates where !value.isEmpty {
            origins[key] = origin
            return value
        }
        origins[key] = .default
        return fallback
    }
}
