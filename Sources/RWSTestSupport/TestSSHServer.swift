import Foundation
import Platform
import SSHClient

/// A real SSH server (OpenSSH `sshd`, dropbear or asyncssh, see ``ServerKind``) on 127.0.0.1 with
/// throwaway keys, for tests, benchmarks and the demo.
///
/// Everything it writes lives in one temporary directory, removed by ``stop()``. It never reads
/// or writes `/etc/ssh` or the user's `~/.ssh`. Sessions get `HOME` pointed at ``remoteHome``, a
/// sandbox directory, so `~` on the "remote" box is never the real home.
public final class TestSSHServer: @unchecked Sendable {
    /// Knobs for the server.
    public struct Options: Sendable {
        /// `MaxSessions`; nil keeps OpenSSH's default of 10. Dropbear's limit is fixed: set, it refuses to start.
        public var maxSessions: Int?
        /// Whether the `sftp` subsystem is offered.
        public var sftp: Bool
        /// Extra `sshd_config` lines (OpenSSH only: dropbear refuses to start with any).
        public var extraConfig: [String]
        /// A program run instead of every requested command, which finds that command in
        /// `SSH_ORIGINAL_COMMAND` (sshd `ForceCommand`, dropbear `-c`).
        public var forceCommand: String?
        /// Whether password logins are offered (sshd `PasswordAuthentication yes`, dropbear without `-s`;
        /// asyncssh offers password and keyboard-interactive logins with ``TestSSHServer/testPassword``).
        public var passwordAuthentication: Bool

        /// Options for a default-configured server with SFTP and key logins only.
        public init(
            maxSessions: Int? = nil, sftp: Bool = true, extraConfig: [String] = [], forceCommand: String? = nil,
            passwordAuthentication: Bool = false
        ) {
            self.maxSessions = maxSessions
            self.sftp = sftp
            self.extraConfig = extraConfig
            self.forceCommand = forceCommand
            self.passwordAuthentication = passwordAuthentication
        }
    }

    /// Which server program runs.
    public let kind: ServerKind
    /// The temporary directory holding keys, config, logs and the sandbox home.
    public let directory: URL
    /// The TCP port on 127.0.0.1.
    public let port: Int
    /// The user sessions run as (the user running the tests).
    public let user: String
    /// Private key (ed25519, no passphrase) that the server accepts.
    public let clientKeyPath: String
    /// A known_hosts file holding the server's host key.
    public let knownHostsPath: String
    /// `HOME` for every session on this server.
    public let remoteHome: String
    /// The server's log, for diagnosing failed tests.
    public let logPath: String
    /// The file holding the listening server's PID.
    public var pidFilePath: String { directory.path + "/\(kind.programName).pid" }
    /// The password this server accepts, where it has one of its own: asyncssh's fixed test
    /// password when ``Options/passwordAuthentication`` is on. Nil otherwise, and always for
    /// OpenSSH and dropbear, which check the system's password database.
    public let testPassword: String?
    private let authorizedKeysPath: String
    private var process: SpawnedProcess?

    /// Starts a server of the default kind (``ServerKind/default``, OpenSSH unless `RWS_TEST_SERVER` says otherwise).
    public convenience init(_ options: Options = Options()) throws {
        try self.init(.default, options)
    }

    /// Generates keys, writes the configuration, starts the server and waits until it accepts connections.
    ///
    /// Its files go in `directory` when given (created if missing, kept if the start fails), else in a
    /// fresh temporary directory.
    public init(_ kind: ServerKind, _ options: Options = Options(), directory given: URL? = nil) throws {
        try Prerequisites.require("/usr/bin/ssh-keygen", package: "openssh-client")
        self.kind = kind
        directory = given ?? FileManager.default.temporaryDirectory.appendingPathComponent("rws-\(kind)-\(UUID().uuidString.prefix(8))")
        let path = directory.path
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        user = ProcessInfo.processInfo.environment["USER"] ?? Self.currentUserName()
        clientKeyPath = path + "/client_ed25519"
        knownHostsPath = path + "/known_hosts"
        remoteHome = path + "/home"
        logPath = path + "/\(kind).log"
        testPassword = kind == .asyncssh && options.passwordAuthentication ? AsyncSSHServer.password : nil
        do {
            let prepared = try Self.prepareFiles(kind, options, directory: path, home: remoteHome, user: user, clientKeyPath: clientKeyPath)
            authorizedKeysPath = prepared.authorizedKeys
            let listening = try Self.startListening(
                kind, options, directory: path, home: remoteHome, logPath: logPath,
                hostKey: prepared.hostKey, knownHostsPath: knownHostsPath)
            process = listening.process
            port = listening.port
        } catch {
            if given == nil { try? FileManager.default.removeItem(at: directory) }
            throw error
        }
    }

    /// Writes keys and the server's files; returns where authorized keys live and the host key line.
    private static func prepareFiles(
        _ kind: ServerKind, _ options: Options, directory path: String, home: String, user: String,
        clientKeyPath: String
    ) throws -> (authorizedKeys: String, hostKey: String) {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let authorizedKeys: String
        switch kind {
        case .openssh:
            try OpenSSHServer.prepare(directory: path)
            authorizedKeys = path + "/authorized_keys"
        case .dropbear:
            try DropbearServer.prepare(options, directory: path, home: home, user: user)
            authorizedKeys = home + "/.ssh/authorized_keys"
        case .asyncssh:
            try AsyncSSHServer.prepare(options, directory: path)
            authorizedKeys = path + "/authorized_keys"
        }
        try Shell.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "rws-test", "-f", clientKeyPath])
        try FileManager.default.copyItem(atPath: clientKeyPath + ".pub", toPath: authorizedKeys)
        try "".write(toFile: path + "/empty_ssh_config", atomically: true, encoding: .utf8)
        let hostKey = try String(contentsOfFile: path + "/host_ed25519.pub", encoding: .utf8)
            .split(separator: " ").prefix(2).joined(separator: " ")
        return (authorizedKeys, hostKey)
    }

    /// Starts the server on a free port (trying five, as another process may take one first) and
    /// writes known_hosts for it.
    private static func startListening(
        _ kind: ServerKind, _ options: Options, directory: String, home: String, logPath: String,
        hostKey: String, knownHostsPath: String
    ) throws -> (process: SpawnedProcess, port: Int) {
        var lastError: Error?
        for _ in 0..<5 {
            let candidate = try LocalPort.free()
            var launched: SpawnedProcess?
            do {
                launched = try start(kind, options, port: candidate, directory: directory, home: home, logPath: logPath)
                try LocalPort.waitForGreeting(port: candidate, process: launched!, name: "\(kind)", logPath: logPath)
                try settle(kind, root: launched!.pid)
                try "[127.0.0.1]:\(candidate) \(hostKey)\n".write(toFile: knownHostsPath, atomically: true, encoding: .utf8)
                return (launched!, candidate)
            } catch {
                lastError = error
                if let pid = launched?.pid { signalTree(pid, SIGKILL) }
                launched?.stop()
            }
        }
        throw lastError ?? TestServerError.startFailed("\(kind) did not start")
    }

    /// Waits until the process of the readiness check's connection ended: dropbear counts a
    /// connection against its five unauthenticated ones per address until its process ends, so a
    /// test's first connections could otherwise be closed unanswered.
    private static func settle(_ kind: ServerKind, root: pid_t) throws {
        let deadline = ContinuousClock.now + StartWait.limit
        while !connectionProcesses(kind, root: root).isEmpty {
            guard ContinuousClock.now < deadline else {
                let left = connectionProcesses(kind, root: root)
                throw TestServerError.startFailed(
                    "\(kind): the processes of its first connections did not end within \(StartWait.seconds) s: \(left)")
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    private static func start(
        _ kind: ServerKind, _ options: Options, port: Int, directory: String, home: String,
        logPath: String
    ) throws -> SpawnedProcess {
        switch kind {
        case .openssh: try OpenSSHServer.start(options, port: port, directory: directory, home: home, logPath: logPath)
        case .dropbear: try DropbearServer.start(options, port: port, directory: directory, logPath: logPath)
        case .asyncssh: try AsyncSSHServer.start(options, port: port, directory: directory, home: home, logPath: logPath)
        }
    }

    /// A connection configuration for this server: its client key and known_hosts, strict checking.
    public func configuration(maxChannels: Int = 10, deadPeerTimeout: Duration = .seconds(20)) -> SSHConnectionConfiguration {
        SSHConnectionConfiguration(
            host: "127.0.0.1", port: port, user: user,
            authentication: [.privateKey(path: clientKeyPath)],
            knownHostsFile: knownHostsPath, connectTimeout: .seconds(10),
            keepaliveInterval: .seconds(1), deadPeerTimeout: deadPeerTimeout, maxChannels: maxChannels)
    }

    /// Connects to this server with ``configuration(maxChannels:deadPeerTimeout:)``.
    public func connect(maxChannels: Int = 10, deadPeerTimeout: Duration = .seconds(20)) async throws -> SSHConnection {
        let settings = configuration(maxChannels: maxChannels, deadPeerTimeout: deadPeerTimeout)
        return try await HandshakeGate.forServer(port: port).pass { try await SSHConnection.connect(settings) }
    }

    /// Sends `signal` to the listening server and every process under it (per-connection
    /// processes retitle themselves, e.g. "sshd: root@notty", so they are found by parentage).
    public func signalAll(_ signal: Int32) {
        guard let root = process?.pid else { return }
        Self.signalTree(root, signal)
    }

    /// The server processes under the listener: one or more per accepted connection (OpenSSH,
    /// dropbear); none for asyncssh, which serves every connection in its own process.
    public var connectionProcesses: [pid_t] {
        guard let root = process?.pid else { return [] }
        return Self.connectionProcesses(kind, root: root)
    }

    private static func connectionProcesses(_ kind: ServerKind, root: pid_t) -> [pid_t] {
        guard kind != .asyncssh else { return [] }
        let name = kind.programName  // not the dropbear watchdog's shell and sleep
        return LocalProcessTable.descendants(of: root).filter { pid in
            ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "").hasPrefix(name)
        }
    }

    static func signalTree(_ root: pid_t, _ signal: Int32) {
        // A process gone meanwhile is what the signal wanted anyway.
        for pid in LocalProcessTable.descendants(of: root) + [root] { try? SystemCall.kill(pid, signal) }
    }

    /// Leaves the server running after this object and this process are gone (the sandbox of the
    /// demo and the benchmarks); ``stopDetached(directory:)`` stops it.
    public func detach() {
        process = nil
    }

    /// Stops the server (and its per-connection children) and removes the directory.
    public func stop() {
        signalAll(SIGKILL)
        process?.stop()
        process = nil
        try? FileManager.default.removeItem(at: directory)
    }

    deinit {
        if process != nil { stop() }
    }

    /// Adds a public key to the server's authorized keys.
    public func authorize(publicKeyFile: String) throws {
        let key = try String(contentsOfFile: publicKeyFile, encoding: .utf8)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: authorizedKeysPath))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(key.utf8))
    }

    private static func currentUserName() -> String {
        SystemCall.userName ?? "root"
    }
}

/// Why the test server could not be used.
public enum TestServerError: Error, CustomStringConvertible {
    /// A program the tests need is not installed.
    case missingPrerequisite(path: String, installCommand: String)
    /// The server did not come up.
    case startFailed(String)
    /// A helper command failed.
    case commandFailed(String)

    public var description: String {
        switch self {
        case .missingPrerequisite(let path, let install): return "\(path) is missing: install it with `\(install)`"
        case .startFailed(let message): return "test SSH server: \(message)"
        case .commandFailed(let message): return message
        }
    }
}

extension TestSSHServer {
    /// Connects, runs `body`, and closes the connection whether `body` returned or threw.
    ///
    /// Closing before the test returns matters: a loop thread still inside OpenSSL when the
    /// process exits races OpenSSL's exit handlers.
    public func withConnection<T>(
        maxChannels: Int = 10, deadPeerTimeout: Duration = .seconds(20),
        _ body: (SSHConnection) async throws -> T
    ) async throws -> T {
        try await Self.closing(try await connect(maxChannels: maxChannels, deadPeerTimeout: deadPeerTimeout), body)
    }

    /// Connects with ``configuration(maxChannels:deadPeerTimeout:)`` changed by `adjust`, runs
    /// `body`, and closes the connection whether `body` returned or threw.
    public func withConnection<T>(
        adjusting adjust: (inout SSHConnectionConfiguration) -> Void, _ body: (SSHConnection) async throws -> T
    ) async throws -> T {
        var settings = configuration()
        adjust(&settings)
        let connection = try await HandshakeGate.forServer(port: port).pass { try await SSHConnection.connect(settings) }
        return try await Self.closing(connection, body)
    }
}
