import Foundation
import RWSTestSupport
import SSHClient
import SSHConfig
import Testing

/// `SSHConnectionConfiguration(resolving:)`: a library user gets the OpenSSH config resolution
/// `rws` uses, from a sandboxed home that never reads the real `~/.ssh`.
@Suite(.timeLimit(.minutes(3))) struct ResolvingConfigurationTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-resolving-\(UUID().uuidString.prefix(8))").path

    var local: LocalContext { LocalContext(home: home, userName: "localme", userID: 1000, hostName: "laptop.example") }

    /// Writes `text` as the sandbox's `~/.ssh/config` and `files` (name: contents) beside it.
    func writeConfig(_ text: String, files: [String: String] = [:]) throws {
        try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true)
        try text.write(toFile: home + "/.ssh/config", atomically: true, encoding: .utf8)
        for (name, contents) in files { try contents.write(toFile: home + "/.ssh/" + name, atomically: true, encoding: .utf8) }
    }

    func keyPaths(_ configuration: SSHConnectionConfiguration) -> [String] {
        configuration.authentication.compactMap { if case .privateKey(let path, _) = $0 { path } else { nil } }
    }

    @Test func anAliasResolvesThroughHostMatchIncludeAndProxyJump() throws {
        try writeConfig(
            """
            Include extra.conf
            Match originalhost box localuser nobody
              Port 1
            Host box
              HostName Box.Example.Com
              ProxyJump hopper@bastion:2200
              ServerAliveInterval 10
            Match user deploy
              IdentityFile ~/.ssh/deploy_key
            Host bastion
              HostName 10.9.8.7
              User someone-else
            Host *
              UserKnownHostsFile ~/.ssh/known_hosts_%h
              StrictHostKeyChecking accept-new
            """, files: ["extra.conf": "Host box\n  User deploy\n  Port 2222\n  ConnectTimeout 7\n", "deploy_key": "", "id_ed25519": ""])

        let configuration = try SSHConnectionConfiguration(resolving: "box", environment: [:], local: local)

        #expect(configuration.host == "box.example.com")
        #expect(configuration.port == 2222)
        #expect(configuration.user == "deploy")
        #expect(keyPaths(configuration) == [home + "/.ssh/deploy_key"])
        #expect(configuration.knownHostsFile == home + "/.ssh/known_hosts_box.example.com")
        #expect(configuration.hostKeyPolicy == .acceptNew)
        #expect(configuration.connectTimeout == .seconds(7))
        #expect(configuration.keepaliveInterval == .seconds(10))
        #expect(configuration.deadPeerTimeout == .seconds(30))
        let hops = configuration.jumpHosts
        #expect(hops.map(\.host) == ["10.9.8.7"])
        #expect(hops.map(\.port) == [2200])
        #expect(hops.map(\.user) == ["hopper"], "the hop's own user@ wins over its config entry")
        #expect(hops.first?.knownHostsFile == home + "/.ssh/known_hosts_10.9.8.7")
        #expect(hops.first.map(keyPaths) == [home + "/.ssh/id_ed25519"], "the hop has its own identity files")
    }

    @Test func overridesAndRWSVariablesWinOverTheConfigFile() throws {
        try writeConfig("Host box\n  HostName 10.0.0.1\n  User alice\n  Port 2222\n")
        var overrides = SettingOverrides()
        overrides.port = 2200
        let configuration = try SSHConnectionConfiguration(
            resolving: "box", overrides: overrides, environment: ["RWS_USER": "bob", "RWS_PORT": "2000"], local: local)
        #expect(configuration.host == "10.0.0.1")
        #expect(configuration.user == "bob")
        #expect(configuration.port == 2200)
        #expect(configuration.jumpHosts.isEmpty)
    }

    @Test func aMissingDefaultKeyIsSkippedButAMissingNamedKeyIsAnError() throws {
        try writeConfig("Host box\n  IdentityFile ~/.ssh/absent\n")
        let quiet = try SSHConnectionConfiguration(resolving: "box", environment: [:], local: local, password: "pw")
        #expect(keyPaths(quiet).isEmpty)
        #expect(quiet.authentication.count == 2, "password and keyboard-interactive")
        var overrides = SettingOverrides()
        overrides.identityFiles = ["~/.ssh/absent"]
        #expect(throws: SSHError.invalidArgument("identity file \(home)/.ssh/absent does not exist")) {
            try SSHConnectionConfiguration(resolving: "box", overrides: overrides, environment: [:], local: local)
        }
        #expect(throws: SSHConfigError.missingHost) {
            try SSHConnectionConfiguration(resolving: SettingOverrides(), environment: [:], local: local)
        }
    }

    @Test func theHomeComesFromTheGivenEnvironmentSoASandboxNeverReadsTheRealSSHDirectory() throws {
        try writeConfig("Host box\n  HostName 10.1.1.1\n")
        let configuration = try SSHConnectionConfiguration(resolving: "box", environment: ["HOME": home])
        #expect(configuration.host == "10.1.1.1")
        #expect(configuration.knownHostsFile == home + "/.ssh/known_hosts")
    }

    @Test(arguments: ServerKind.allCases)
    func aResolvedConfigurationConnectsToTheServerDirectlyAndThroughAJumpHost(kind: ServerKind) async throws {
        let target = try SharedTestServer.get(kind)
        let jump = try TestSSHServer(kind)
        defer { jump.stop() }
        try jump.authorize(publicKeyFile: target.clientKeyPath + ".pub")
        let knownHosts =
            try String(contentsOfFile: target.knownHostsPath, encoding: .utf8)
            + String(contentsOfFile: jump.knownHostsPath, encoding: .utf8)
        try writeConfig(
            """
            Host target
              HostName 127.0.0.1
              Port \(target.port)
            Host jumped
              HostName 127.0.0.1
              Port \(target.port)
              ProxyJump bastion
            Host bastion
              HostName 127.0.0.1
              Port \(jump.port)
            Host *
              User \(target.user)
              IdentityFile \(target.clientKeyPath)
              UserKnownHostsFile ~/.ssh/known_hosts
            """, files: ["known_hosts": knownHosts])

        for alias in ["target", "jumped"] {
            let ssh = try await SSHConnection.connect(SSHConnectionConfiguration(resolving: alias, environment: ["HOME": home]))
            let result = try await ssh.run("echo reached")
            await ssh.close()
            #expect(result.stdoutText == "reached\n", "\(alias)")
        }
        #expect(try await jump.waitForConnectionProcesses(0) == 0, "the jump connection was made and is closed again")
    }
}
