import Foundation
import Logging
import SSHConfig

extension SSHConnectionConfiguration {
    /// The configuration `rws --host host` connects with: `~/.ssh/config` (Host, Match, Include,
    /// HostName, Port, User, IdentityFile, UserKnownHostsFile, StrictHostKeyChecking,
    /// ConnectTimeout, ServerAlive*, ProxyJump) resolved as OpenSSH does, with `overrides` and
    /// the `RWS_*` variables of `environment` above it (see `Resolution` in the `SSHConfig` module).
    ///
    /// ```swift
    /// let ssh = try await SSHConnection.connect(SSHConnectionConfiguration(resolving: "box"))
    /// ```
    ///
    /// - Parameters:
    ///   - host: `[USER@]HOST[:PORT]` or a `Host` alias of the config file.
    ///   - overrides: Settings above the config file, as `rws`'s flags (`configFile` is `ssh -F`).
    ///   - environment: Read for `RWS_*`, `SSH_AUTH_SOCK` (the agent) and `RWS_KEY_PASSPHRASE`.
    ///   - local: Home, user and host name of this machine; by default the running process's, with
    ///     `$HOME` of `environment` as home, so a sandboxed `HOME` never reads the real `~/.ssh`.
    ///   - password: Also tried (`password`, then `keyboard-interactive`) after the keys and agent.
    ///   - logger: Where the connection reports what it does.
    /// - Throws: `SSHConfigError` for a config file, host or override that cannot be
    ///   used; ``SSHError/invalidArgument(_:)`` for an identity file given in `overrides` or
    ///   `RWS_IDENTITY` that does not exist.
    public init(
        resolving host: String,
        overrides: SettingOverrides = SettingOverrides(),
        environment: [String: String] = ProcessInfo.processInfo.environment,
        local: LocalContext? = nil,
        password: String? = nil,
        logger: Logger = Logger(label: "rws.ssh", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        var flags = overrides
        flags.host = try HostArgument(parsing: host)
        try self.init(resolving: flags, environment: environment, local: local, password: password, logger: logger)
    }

    /// As ``init(resolving:overrides:environment:local:password:logger:)``, with the host taken
    /// from `overrides.host`, else `RWS_HOST` (`SSHConfigError.missingHost` when neither
    /// names one): what every `rws` command connects with.
    public init(
        resolving overrides: SettingOverrides,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        local: LocalContext? = nil,
        password: String? = nil,
        logger: Logger = Logger(label: "rws.ssh", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        let local = local ?? LocalContext.current(environment: environment, homeFromEnvironment: true)
        let target = try Resolution.resolve(flags: overrides, environment: environment, local: local)
        let passphrase = environment["RWS_KEY_PASSPHRASE"]
        try self.init(resolved: target, home: local.home, passphrase: passphrase, password: password, logger: logger)
        jumpHosts = try target.proxyJump.map { hop in
            let resolved = try Resolution.resolveJumpHost(hop, flags: overrides, environment: environment, local: local)
            return try SSHConnectionConfiguration(
                resolved: resolved, home: local.home, passphrase: passphrase, password: password, logger: logger)
        }
    }

    /// One host's settings, without its jump hosts (``jumpHosts`` stays empty).
    ///
    /// Identity files that do not exist are skipped, as `ssh` does, unless they were named by a
    /// flag or the environment (then they are an error). The agent is used when `SSH_AUTH_SOCK`
    /// was set and `IdentitiesOnly` is off. Keys are tried in the config's order, except that
    /// encrypted files without `passphrase` come after the agent: set ``askPassphrase`` to be
    /// asked for theirs only when the agent's keys did not get in, as `ssh` asks. `StrictHostKeyChecking no` trusts first-seen hosts
    /// only: a changed host key is refused under every policy. Without `ServerAliveInterval`,
    /// a keepalive goes out after 5 s of silence and the peer counts as dead after 20 s.
    ///
    /// - Parameters:
    ///   - resolved: The host's settings, from `Resolution.resolve(flags:environment:local:)`.
    ///   - home: The local home directory, for the default known hosts file.
    ///   - passphrase: Unlocks encrypted identity files.
    ///   - password: Also tried (`password`, then `keyboard-interactive`) after the keys and agent.
    ///   - logger: Where the connection reports what it does.
    public init(
        resolved: ResolvedHost, home: String, passphrase: String? = nil, password: String? = nil,
        logger: Logger = Logger(label: "rws.ssh", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        var methods: [AuthenticationMethod] = []
        var locked: [AuthenticationMethod] = []
        let namedKeys = [.flag, .environment].contains(resolved.origins[.identityfile])
        for path in resolved.identityFiles {
            if FileManager.default.fileExists(atPath: path) {
                // A key that would need a passphrase asked for waits until after the agent, as in ssh.
                if passphrase == nil, privateKeyFileIsEncrypted(atPath: path) {
                    locked.append(.privateKey(path: path))
                } else {
                    methods.append(.privateKey(path: path, passphrase: passphrase))
                }
            } else if namedKeys {
                throw SSHError.invalidArgument("identity file \(path) does not exist")
            }
        }
        if resolved.agentPolicy == .allKeys, let socket = resolved.agentSocket { methods.append(.agent(socketPath: socket)) }
        methods += locked
        if let password {
            methods.append(.password(password))
            methods.append(.keyboardInteractive(password: password))
        }
        let alive = resolved.serverAliveInterval
        self.init(
            host: resolved.hostName, port: resolved.port, user: resolved.user, authentication: methods,
            hostKeyPolicy: [.yes, .ask].contains(resolved.strictHostKeyChecking) ? .strict : .acceptNew,
            knownHostsFile: resolved.userKnownHostsFiles.first ?? home + "/.ssh/known_hosts",
            connectTimeout: .seconds(resolved.connectTimeout ?? 15),
            keepaliveInterval: .seconds(alive > 0 ? alive : 5),
            deadPeerTimeout: .seconds(alive > 0 ? alive * max(1, resolved.serverAliveCountMax) : 20),
            logger: logger)
    }
}
