import Foundation
import RWSTestSupport
import SSHClient
import SSHConfig
import Testing

/// A library user calling `SSHConnectionConfiguration(resolving:)` gets the host `rws` resolves:
/// the same sandbox config (Host, Match, Include, ProxyJump) read by both gives the same target
/// and the same jump hosts as `rws config show` prints.
@Suite struct LibraryResolutionParityTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-parity-\(UUID().uuidString.prefix(8))").path

    /// What `rws config show --host host --json` resolves, decoded.
    func shown(_ host: String, environment: [String: String] = [:]) async throws -> ResolvedHost {
        let outcome = await InProcessRWS.run(["config", "show", "--host", host, "--json"], home: home, environment: environment)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return try JSONDecoder().decode(ResolvedHost.self, from: Data(outcome.stdout.utf8))
    }

    func expectSame(_ configuration: SSHConnectionConfiguration, as resolved: ResolvedHost) {
        #expect(configuration.host == resolved.hostName)
        #expect(configuration.port == resolved.port)
        #expect(configuration.user == resolved.user)
        #expect(configuration.knownHostsFile == resolved.userKnownHostsFiles.first)
        #expect(configuration.hostKeyPolicy == ([.yes, .ask].contains(resolved.strictHostKeyChecking) ? .strict : .acceptNew))
        #expect(configuration.connectTimeout == .seconds(resolved.connectTimeout ?? 15))
        let keys = configuration.authentication.compactMap { if case .privateKey(let path, _) = $0 { path } else { nil } }
        #expect(keys == resolved.existingIdentityFiles())
    }

    @Test func theLibraryResolvesAnAliasAsRWSConfigShowDoes() async throws {
        try FileManager.default.createDirectory(atPath: home + "/.ssh/conf.d", withIntermediateDirectories: true)
        let config = """
            Include conf.d/*.conf
            Host web
              HostName Web.Internal
              ProxyJump ops@gate:2022,relay
            Match originalhost web user deploy
              IdentityFile ~/.ssh/deploy_%r
              ConnectTimeout 9
            Host gate
              HostName 192.0.2.10
            Host *
              StrictHostKeyChecking no
              UserKnownHostsFile ~/.ssh/hosts_%h
            """
        try config.write(toFile: home + "/.ssh/config", atomically: true, encoding: .utf8)
        try "Host web\n  User deploy\n  Port 2201\n".write(toFile: home + "/.ssh/conf.d/web.conf", atomically: true, encoding: .utf8)
        for key in ["deploy_deploy", "id_ed25519"] { try Data().write(to: URL(fileURLWithPath: home + "/.ssh/" + key)) }
        let environment = ["RWS_SERVER_ALIVE_INTERVAL": "4"]

        let target = try await shown("web", environment: environment)
        #expect(target.hostName == "web.internal" && target.port == 2201 && target.user == "deploy", "the fixture resolves at all")
        #expect(target.proxyJump.count == 2)
        let library = try SSHConnectionConfiguration(resolving: "web", environment: environment.merging(["HOME": home]) { $1 })
        expectSame(library, as: target)
        #expect(library.keepaliveInterval == .seconds(4))
        #expect(library.jumpHosts.count == target.proxyJump.count)
        for (hop, configured) in zip(target.proxyJump, library.jumpHosts) {
            expectSame(configured, as: try await shown(hop.description))
        }
    }
}
