import ArgumentParser
import Foundation
import SSHClient
import SSHConfig

/// The options every command that connects shares.
struct ConnectionOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "[USER@]HOST[:PORT], or a Host from the SSH config (env RWS_HOST).", valueName: "host"))
    var host: String?

    @Option(name: [.customShort("p"), .long], help: "Port (default 22, or the config's Port; env RWS_PORT).")
    var port: Int?

    @Option(name: [.customShort("l"), .long], help: "Remote user (default: the config's User, else your local name; env RWS_USER).")
    var user: String?

    @Option(
        name: [.customShort("i"), .long],
        help: ArgumentHelp(
            "Private key file; repeat to try several (default ~/.ssh/id_ed25519, ~/.ssh/id_ecdsa; env RWS_IDENTITY).",
            valueName: "file"), completion: .file())
    var identity: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Name of an environment variable holding the password (never pass a password as an argument).",
            valueName: "var"))
    var passwordEnv: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Name of an environment variable holding the passphrase of an encrypted key (on a terminal rws asks instead; "
                + "env RWS_KEY_PASSPHRASE).", valueName: "var"))
    var passphraseEnv: String?

    @Option(
        name: .long, help: ArgumentHelp("known_hosts file (default ~/.ssh/known_hosts; env RWS_KNOWN_HOSTS).", valueName: "file"),
        completion: .file())
    var knownHosts: String?

    @Flag(name: .long, help: "Trust a host seen for the first time and record its key (a changed key is still refused).")
    var acceptNewHostKey = false

    @Option(
        name: [.customShort("F"), .customLong("ssh-config")],
        help: ArgumentHelp(
            "OpenSSH client config to read (default ~/.ssh/config; env RWS_SSH_CONFIG).", valueName: "file"),
        completion: .file())
    var sshConfig: String?

    @Option(
        name: [.customShort("J"), .customLong("jump")],
        help: ArgumentHelp(
            "Jump hosts, first hop first: [USER@]HOST[:PORT],... as ssh -J; 'none' ignores the config's ProxyJump (env RWS_PROXY_JUMP).",
            valueName: "hosts"))
    var jump: String?

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for the connection (default 15).", valueName: "seconds"))
    var connectTimeout: Int?

    @OptionGroup var logging: LoggingOptions

    /// Flags as the resolution layer sees them.
    func overrides() throws -> SettingOverrides {
        var flags = SettingOverrides()
        if let host { flags.host = try HostArgument(parsing: host) }
        flags.configFile = sshConfig
        flags.user = user
        flags.port = port
        flags.identityFiles = identity
        if let knownHosts { flags.userKnownHostsFiles = [knownHosts] }
        if acceptNewHostKey { flags.strictHostKeyChecking = .acceptNew }
        flags.connectTimeout = connectTimeout
        flags.proxyJump = try jump.map { try SettingOverrides.parseJumpHosts($0, flag: "--jump") }
        return flags
    }
}
