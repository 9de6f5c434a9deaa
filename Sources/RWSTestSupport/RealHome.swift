import Foundation
import Platform

/// A sandbox home whose `~/.ssh` looks like one used for years, for testing rws from the state
/// real users are in rather than from fresh, empty files:
///
/// - `config` with an `Include` of `config.d/*`, `Match` blocks, wildcard hosts and settings for
///   other hosts, and `Host box` naming the test server (not yet in known_hosts);
/// - `known_hosts` hashed by `ssh-keygen -H`, with dozens of entries for other hosts, a
///   `@cert-authority` line and a comment, CRLF-free but without a final newline;
/// - several keys: `id_ed25519_box` (the one the server accepts), `id_ed25519` and `id_rsa` it
///   does not know, `id_ecdsa_locked` encrypted with ``lockedPassphrase``;
/// - a running `ssh-agent` holding ``agentKeyCount`` keys the server does not know.
///
/// Hosts in the config: `box` (the server), `box-accept-new` (the server, with
/// `StrictHostKeyChecking accept-new`), `rsa-only` and `locked` (the server, with only `id_rsa` or
/// only the encrypted key). Call ``stop()`` on every path: it ends the agent.
public final class RealHome: @unchecked Sendable {
    /// The home folder (`HOME`).
    public let home: String
    /// `HOME/.ssh`.
    public var sshDirectory: String { home + "/.ssh" }
    /// `HOME/.ssh/known_hosts`.
    public var knownHostsPath: String { sshDirectory + "/known_hosts" }
    /// The agent's socket (`SSH_AUTH_SOCK`).
    public var agentSocket: String { agent.socket }
    /// The passphrase of `id_ecdsa_locked`.
    public static let lockedPassphrase = "correct horse battery staple"
    /// How many keys the agent holds, none of which the server accepts.
    public static let agentKeyCount = 8
    /// How many entries `known_hosts` has before rws touches it.
    public let knownHostsEntries: Int
    /// The home's agent, holding ``agentKeyCount`` keys the server does not know.
    public let agent: TestSSHAgent

    /// The environment rws runs with in this home: `HOME` and `SSH_AUTH_SOCK`.
    public var environment: [String: String] { ["HOME": home, "SSH_AUTH_SOCK": agentSocket] }

    /// Builds the home for `server` at `path` (a fresh temporary folder when nil), and starts its agent.
    public init(for server: TestSSHServer, at path: String? = nil) throws {
        home = path ?? FileManager.default.temporaryDirectory.appendingPathComponent("rws-real-home-\(UUID().uuidString.prefix(8))").path
        let ssh = home + "/.ssh"
        try FileManager.default.createDirectory(atPath: ssh + "/config.d", withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: ssh)
        try FileManager.default.copyItem(atPath: server.clientKeyPath, toPath: ssh + "/id_ed25519_box")
        try FileManager.default.copyItem(atPath: server.clientKeyPath + ".pub", toPath: ssh + "/id_ed25519_box.pub")
        try Self.keygen(ssh + "/id_ed25519", type: "ed25519")
        try Self.keygen(ssh + "/id_rsa", type: "rsa")
        try Self.keygen(ssh + "/id_ecdsa_locked", type: "ecdsa", passphrase: Self.lockedPassphrase)
        knownHostsEntries = try Self.writeKnownHosts(ssh)
        try Self.writeConfig(ssh, server: server)
        agent = try TestSSHAgent(socket: home + "/agent.sock")
        do {
            for index in 0..<Self.agentKeyCount {
                let key = home + "/agent-key-\(index)"
                try Self.keygen(key, type: "ed25519")
                try agent.add(keyFile: key)
            }
        } catch {
            stop()
            throw error
        }
    }

    /// Ends the agent and removes the home.
    public func stop() {
        agent.stop()
        try? FileManager.default.removeItem(atPath: home)
    }

    /// Leaves the agent running after this process ends (the demo's sandbox), its PID in
    /// ``agentPIDFile`` for ``stopDetached(home:)``.
    public func detach() throws {
        try "\(agent.pid)\n".write(toFile: agentPIDFile, atomically: true, encoding: .utf8)
    }

    /// Where ``detach()`` leaves the agent's PID.
    public var agentPIDFile: String { home + "/.rws-agent.pid" }

    /// Ends the agent a detached home left running; nothing when there is none.
    public static func stopDetached(home: String) {
        guard let text = try? String(contentsOfFile: home + "/.rws-agent.pid", encoding: .utf8),
            let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return }
        try? SystemCall.kill(pid, SIGTERM)
        // Checked, not assumed: the agent is gone once signal 0 finds no such process.
        for _ in 0..<200 where (try? SystemCall.kill(pid, 0)) != nil { usleep(10_000) }
    }

    /// The number of entries OpenSSH finds in known_hosts (`ssh-keygen -F` per name is too slow;
    /// every non-comment line is one entry).
    public func countKnownHostsEntries() throws -> Int {
        try String(contentsOfFile: knownHostsPath, encoding: .utf8).split(whereSeparator: \.isNewline)
            .filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }.count
    }

    private static func keygen(_ path: String, type: String, passphrase: String = "") throws {
        var arguments = ["-q", "-t", type, "-N", passphrase, "-C", "me@laptop", "-f", path]
        if type == "rsa" { arguments += ["-b", "2048"] }
        try Shell.run("/usr/bin/ssh-keygen", arguments)
    }

    /// Dozens of hosts, hashed the way `HashKnownHosts yes` leaves them; returns the entry count.
    private static func writeKnownHosts(_ ssh: String) throws -> Int {
        var keys: [String] = []
        for index in 0..<4 {
            let path = ssh + "/.host-key-\(index)"
            try keygen(path, type: index == 3 ? "ecdsa" : "ed25519")
            keys.append(try String(contentsOfFile: path + ".pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " "))
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.removeItem(atPath: path + ".pub")
        }
        let hosts =
            (1...24).map { "build\($0).corp.example.org" } + (1...8).map { "[10.0.0.\($0)]:2222" }
            + ["github.com", "gitlab.com", "bitbucket.org", "192.168.1.10"]
        var text = hosts.enumerated().map { "\($0.element) \(keys[$0.offset % keys.count])" }.joined(separator: "\n") + "\n"
        try text.write(toFile: ssh + "/known_hosts", atomically: true, encoding: .utf8)
        try Shell.run("/usr/bin/ssh-keygen", ["-H", "-f", ssh + "/known_hosts"])
        text = try String(contentsOfFile: ssh + "/known_hosts", encoding: .utf8)
        text =
            "# added by hand, 2019\n@cert-authority *.corp.example.org \(keys[0])\n" + text
            + "old-box.example.org,10.9.9.9 \(keys[1])"  // no final newline: an editor left it so
        try text.write(toFile: ssh + "/known_hosts", atomically: true, encoding: .utf8)
        return hosts.count + 2
    }

    private static func writeConfig(_ ssh: String, server: TestSSHServer) throws {
        let target = "  HostName 127.0.0.1\n  Port \(server.port)\n  User \(server.user)\n"
        try """
        # ~/.ssh/config, grown over the years
        Include config.d/*

        Host box
        \(target)  IdentityFile ~/.ssh/id_ed25519_box

        Host box-accept-new
        \(target)  IdentityFile ~/.ssh/id_ed25519_box
          StrictHostKeyChecking accept-new

        Host rsa-only
        \(target)  IdentityFile ~/.ssh/id_rsa
          IdentitiesOnly yes

        Host locked
        \(target)  IdentityFile ~/.ssh/id_ecdsa_locked
          IdentitiesOnly yes

        Match host *.corp.example.org user deploy
          ForwardAgent no

        Host *.corp.example.org
          User deploy
          ProxyJump bastion.corp.example.org

        Host *
          ServerAliveInterval 60
          IdentityFile ~/.ssh/id_ed25519
          HashKnownHosts yes

        """.write(toFile: ssh + "/config", atomically: true, encoding: .utf8)
        try """
        Host old-nas
          HostName 192.168.1.10
          User admin
          HostKeyAlgorithms +ssh-rsa

        Match originalhost github.com
          User git
          IdentityFile ~/.ssh/id_ed25519

        """.write(toFile: ssh + "/config.d/home", atomically: true, encoding: .utf8)
    }
}
