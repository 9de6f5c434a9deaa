import Foundation
import SSHClient
#if canImport(Glibc)
import Glibc
#endif

/// A real OpenSSH `sshd` on 127.0.0.1 with throwaway keys, for tests, benchmarks and the demo.
///
/// Everything it writes lives in one temporary directory, removed by ``stop()``. It never reads
/// or writes `/etc/ssh` or the user's `~/.ssh`. Sessions get `HOME` pointed at ``remoteHome``, a
/// sandbox directory, so `~` on the "remote" box is never the real home.
public final class TestSSHServer: @unchecked Sendable {
    /// Knobs for the server's `sshd_config`.
    public struct Options: Sendable {
        /// `MaxSessions`; nil keeps OpenSSH's default of 10.
        public var maxSessions: Int?
        /// Whether the `sftp` subsystem is offered.
        public var sftp: Bool
        /// Extra `sshd_config` lines.
        public var extraConfig: [String]

        /// Options for a default-configured server with SFTP.
        public init(maxSessions: Int? = nil, sftp: Bool = true, extraConfig: [String] = []) {
            self.maxSessions = maxSessions
            self.sftp = sftp
            self.extraConfig = extraConfig
        }
    }

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
    /// The sshd log (`-E`), for diagnosing failed tests.
    public let logPath: String
    private let configPath: String
    private var process: SpawnedProcess?

    /// Generates keys, writes the config, starts sshd and waits until it accepts connections.
    public init(_ options: Options = Options()) throws {
        try Prerequisites.require("/usr/sbin/sshd", package: "openssh-server")
        try Prerequisites.require("/usr/bin/ssh-keygen", package: "openssh-client")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rws-sshd-\(UUID().uuidString.prefix(8))")
        let path = directory.path
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        user = ProcessInfo.processInfo.environment["USER"] ?? Self.currentUserName()
        clientKeyPath = path + "/client_ed25519"
        knownHostsPath = path + "/known_hosts"
        remoteHome = path + "/home"
        logPath = path + "/sshd.log"
        configPath = path + "/sshd_config"
        try FileManager.default.createDirectory(atPath: remoteHome, withIntermediateDirectories: true)
        try Shell.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", path + "/host_ed25519"])
        try Shell.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "rws-test", "-f", clientKeyPath])
        try FileManager.default.copyItem(atPath: clientKeyPath + ".pub", toPath: path + "/authorized_keys")
        try "".write(toFile: path + "/empty_ssh_config", atomically: true, encoding: .utf8)
        if getuid() == 0, !FileManager.default.fileExists(atPath: "/run/sshd") {
            try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
        }
        var lastError: Error?
        var started: Int?
        for _ in 0..<5 where started == nil {
            let candidate = try Self.freePort()
            do {
                try Self.writeConfig(options, port: candidate, directory: path, home: remoteHome, to: configPath)
                process = try Self.launch(configPath: configPath, logPath: logPath)
                try Self.waitUntilListening(port: candidate, process: process!, logPath: logPath)
                started = candidate
                let hostKey = try String(contentsOfFile: path + "/host_ed25519.pub", encoding: .utf8)
                    .split(separator: " ").prefix(2).joined(separator: " ")
                try "[127.0.0.1]:\(candidate) \(hostKey)\n".write(toFile: knownHostsPath, atomically: true, encoding: .utf8)
            } catch {
                lastError = error
                process?.stop()
                process = nil
            }
        }
        guard let started else { throw lastError ?? TestServerError.startFailed("sshd did not start") }
        port = started
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
        try await SSHConnection.connect(configuration(maxChannels: maxChannels, deadPeerTimeout: deadPeerTimeout))
    }

    /// Sends `signal` to the listening sshd and every process under it (per-connection sshd
    /// processes retitle themselves, e.g. "sshd: root@notty", so they are found by parentage).
    public func signalAll(_ signal: Int32) {
        guard let root = process?.pid else { return }
        for pid in Self.descendants(of: root) + [root] { kill(pid, signal) }
    }

    private static func descendants(of root: pid_t) -> [pid_t] {
        guard let table = try? Shell.run("/bin/ps", ["-eo", "pid=,ppid="]) else { return [] }
        var children: [pid_t: [pid_t]] = [:]
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ").compactMap { pid_t($0) }
            if fields.count == 2 { children[fields[1], default: []].append(fields[0]) }
        }
        var result: [pid_t] = []
        var frontier = [root]
        while let next = frontier.popLast() {
            let direct = children[next] ?? []
            result += direct
            frontier += direct
        }
        return result
    }

    /// Stops sshd (and its per-connection children) and removes the directory.
    public func stop() {
        signalAll(SIGKILL)
        process?.stop()
        process = nil
        try? FileManager.default.removeItem(at: directory)
    }

    deinit {
        if process != nil { stop() }
    }

    private static func writeConfig(_ options: Options, port: Int, directory: String, home: String, to path: String) throws {
        // sshd keeps the first value of a keyword: the test's own lines go first to win.
        var lines = options.extraConfig + [
            "ListenAddress 127.0.0.1:\(port)",
            "HostKey \(directory)/host_ed25519",
            "PidFile \(directory)/sshd.pid",
            "AuthorizedKeysFile \(directory)/authorized_keys",
            "PubkeyAuthentication yes",
            "PasswordAuthentication no",
            "KbdInteractiveAuthentication no",
            "UsePAM no",
            "StrictModes no",
            "PermitRootLogin yes",
            "Compression no",
            "LogLevel VERBOSE",
            // Tests connect in bursts; the default (10:30:100) drops some handshakes ("Failed getting banner").
            "MaxStartups 200:30:400",
            // Debian's bash sources ~/.bashrc for sshd commands when SHLVL < 2; a sandbox HOME keeps it out.
            "SetEnv HOME=\(home) SHLVL=1",
        ]
        if let maxSessions = options.maxSessions { lines.append("MaxSessions \(maxSessions)") }
        if options.sftp { lines.append("Subsystem sftp internal-sftp") }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    private static func launch(configPath: String, logPath: String) throws -> SpawnedProcess {
        try SpawnedProcess("/usr/sbin/sshd", ["-D", "-f", configPath, "-E", logPath])
    }

    private static func waitUntilListening(port: Int, process: SpawnedProcess, logPath: String) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            guard process.isRunning else {
                let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                throw TestServerError.startFailed("sshd exited at start: \(log)")
            }
            if canConnect(port: port) { return }
            usleep(20_000)
        }
        throw TestServerError.startFailed("sshd did not listen on 127.0.0.1:\(port) within 10 s")
    }

    private static func canConnect(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw TestServerError.startFailed("no free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func currentUserName() -> String {
        guard let entry = getpwuid(getuid()) else { return "root" }
        return String(cString: entry.pointee.pw_name)
    }
}

/// Why the test server could not be used.
public enum TestServerError: Error, CustomStringConvertible {
    /// A program the tests need is not installed.
    case missingPrerequisite(path: String, installCommand: String)
    /// sshd did not come up.
    case startFailed(String)
    /// A helper command failed.
    case commandFailed(String)

    public var description: String {
        switch self {
        case .missingPrerequisite(let path, let install): return "\(path) is missing: install it with `\(install)`"
        case .startFailed(let message): return "test sshd: \(message)"
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
}

extension TestSSHServer {
    /// Adds a public key to the server's authorized keys.
    public func authorize(publicKeyFile: String) throws {
        let key = try String(contentsOfFile: publicKeyFile, encoding: .utf8)
        let handle = try FileHandle(forWritingTo: directory.appendingPathComponent("authorized_keys"))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(key.utf8))
    }
}
