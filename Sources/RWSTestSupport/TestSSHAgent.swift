import Foundation
import Platform

/// A real `ssh-agent` listening on a socket of its own, holding the keys a test gives it.
/// Call ``stop()`` on every path.
public final class TestSSHAgent: @unchecked Sendable {
    /// The agent's socket (`SSH_AUTH_SOCK`).
    public let socket: String
    private let process: SpawnedProcess

    /// The agent's process ID.
    public var pid: pid_t { process.pid }

    /// Starts an agent listening at `socket` and waits for the socket to appear.
    public init(socket: String) throws {
        try Prerequisites.require("/usr/bin/ssh-agent", package: "openssh-client")
        try Prerequisites.require("/usr/bin/ssh-add", package: "openssh-client")
        self.socket = socket
        process = try SpawnedProcess("/usr/bin/ssh-agent", ["-D", "-a", socket])
        let deadline = ContinuousClock.now + StartWait.limit
        while !FileManager.default.fileExists(atPath: socket) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                process.stop()
                throw TestServerError.startFailed("ssh-agent did not create its socket \(socket) within \(StartWait.seconds) s")
            }
            usleep(10_000)
        }
    }

    /// Adds the private key at `path`; an encrypted one is unlocked with `passphrase` first (in a
    /// copy), as `ssh-add` would after asking.
    public func add(keyFile path: String, passphrase: String? = nil) throws {
        var file = path
        if let passphrase {
            file = path + ".agent-copy-\(UUID().uuidString.prefix(8))"
            try FileManager.default.copyItem(atPath: path, toPath: file)
            try Shell.run("/usr/bin/ssh-keygen", ["-q", "-p", "-f", file, "-P", passphrase, "-N", ""])
        }
        defer { if file != path { try? FileManager.default.removeItem(atPath: file) } }
        try Shell.run("/usr/bin/ssh-add", ["-q", file], environment: ["SSH_AUTH_SOCK": socket])
    }

    /// Ends the agent.
    public func stop() {
        process.stop()
    }
}
