import Foundation
import Logging

/// Where to connect, as whom, and how careful to be.
public struct SSHConnectionConfiguration: Sendable {
    /// Host name or IP address.
    public var host: String
    /// TCP port.
    public var port: Int
    /// Remote user name.
    public var user: String
    /// Ways to authenticate, tried in order until one succeeds.
    public var authentication: [AuthenticationMethod]
    /// How to treat a host key that the known hosts file does not vouch for.
    public var hostKeyPolicy: HostKeyPolicy
    /// The OpenSSH known hosts file to check host keys against (and append to under `.acceptNew`).
    public var knownHostsFile: String
    /// The limit for the TCP connection, handshake and authentication together. The time a person
    /// takes to answer a ``HostKeyPolicy/ask(_:)`` or ``askPassphrase`` question does not count:
    /// it has ``promptTimeout``.
    public var connectTimeout: Duration
    /// How long a question put to a person through a callback — a host key decision
    /// (``HostKeyPolicy/ask(_:)``) or a key's passphrase (``askPassphrase``) — may take before the
    /// connection gives up with ``SSHError/hostKeyDecisionTimedOut(host:port:after:)`` or
    /// ``SSHError/passphraseTimedOut(key:after:)``. Two minutes by default, OpenSSH's
    /// `LoginGraceTime`, after which sshd would close anyway.
    public var promptTimeout: Duration = .seconds(120)
    /// Asks for the passphrase of an encrypted private key that was given without one
    /// (``AuthenticationMethod/privateKey(path:passphrase:)`` with `nil`) when its turn comes:
    /// only after the methods before it failed, so a key the agent holds never asks. Return nil
    /// to skip the key. Without it (the default) such a key fails with
    /// ``SSHError/wrongPassphrase(path:passphraseGiven:)``. A wrong passphrase is asked for again
    /// (``PassphraseChallenge/attempt``), three times in all, as `ssh` asks. Called from a task
    /// while the connection's thread waits, at most ``promptTimeout`` each time; a reconnect asks again.
    ///
    /// ```swift
    /// configuration.askPassphrase = { challenge in await ui.askPassphrase(for: challenge.key) }
    /// ```
    public var askPassphrase: (@Sendable (PassphraseChallenge) async -> String?)? = nil
    /// How long the connection may stay silent before a keepalive is sent.
    public var keepaliveInterval: Duration
    /// How long without hearing from the server before the connection counts as lost.
    public var deadPeerTimeout: Duration
    /// Channels open at once (OpenSSH `MaxSessions`, 10 by default); more requests wait their turn.
    public var maxChannels: Int
    /// How long a stopped command's process group gets between SIGTERM and SIGKILL.
    public var terminationGracePeriod: Duration
    /// Whether and how a lost connection re-establishes itself; nil (the default) ends it for good.
    /// See ``ReconnectPolicy`` and ``SSHConnection/states()``.
    public var reconnect: ReconnectPolicy? = nil
    /// Where the connection reports what it does. Secrets (passwords, passphrases) and command
    /// lines are never logged. Discards everything by default.
    public var logger: Logger
    /// How the file calls (``SSHConnection/listDirectory(_:includeSymlinkTargets:)`` and the
    /// others) reach the box: SFTP when the server offers it, else the shell (the default), or forced.
    public var fileTransport: RemoteFileTransport = .automatic
    /// Hosts to pass through on the way to ``host`` (OpenSSH `ProxyJump`), first hop first: the
    /// first is connected directly, each next one through a `direct-tcpip` channel of the one
    /// before, and ``host``/``port`` are reached from the last (so `127.0.0.1` there means the
    /// last jump host itself). Each hop is checked and authenticated with its own settings;
    /// their own `jumpHosts` must be empty. The hops live exactly as long as this connection:
    /// closing it closes them, and losing one fails it with ``SSHError/connectionLost(reason:)``.
    public var jumpHosts: [SSHConnectionConfiguration] = []
    /// Set on a jump host's own connection: it acknowledges every receive at once.
    var carriesJumpTraffic = false

    /// A configuration with OpenSSH's defaults: strict host keys, `~/.ssh/known_hosts`, 10 channels.
    public init(
        host: String,
        port: Int = 22,
        user: String,
        authentication: [AuthenticationMethod],
        hostKeyPolicy: HostKeyPolicy = .strict,
        knownHostsFile: String = NSString(string: "~/.ssh/known_hosts").expandingTildeInPath,
        connectTimeout: Duration = .seconds(15),
        keepaliveInterval: Duration = .seconds(5),
        deadPeerTimeout: Duration = .seconds(20),
        maxChannels: Int = 10,
        terminationGracePeriod: Duration = .seconds(2),
        logger: Logger = Logger(label: "rws.ssh", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.host = host
        self.port = port
        self.user = user
        self.authentication = authentication
        self.hostKeyPolicy = hostKeyPolicy
        self.knownHostsFile = knownHostsFile
        self.connectTimeout = connectTimeout
        self.keepaliveInterval = keepaliveInterval
        self.deadPeerTimeout = deadPeerTimeout
        self.maxChannels = maxChannels
        self.terminationGracePeriod = terminationGracePeriod
        self.logger = logger
    }
}
