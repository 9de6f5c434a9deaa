import Foundation
import RWSTestSupport
import SSHClient
import Testing

@Suite struct HostKeyTests {
    private func scratchFile(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("rws-hostkeys-\(UUID().uuidString.prefix(8))-\(name)").path
    }

    private func serverFingerprint(_ server: TestSSHServer) throws -> String {
        let line = try Shell.run("/usr/bin/ssh-keygen", ["-l", "-E", "sha256", "-f", server.directory.path + "/host_ed25519.pub"])
        return String(line.split(separator: " ")[1])
    }

    @Test(arguments: ServerKind.allCases)
    func strictModeRefusesAnUnknownHostAndShowsItsFingerprint(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        var configuration = server.configuration()
        configuration.knownHostsFile = scratchFile("empty")
        let expected = try serverFingerprint(server)
        do {
            _ = try await SSHConnection.connect(configuration)
            Issue.record("an unknown host was accepted in strict mode")
        } catch let SSHError.hostKeyUnknown(_, _, keyType, fingerprint, _) {
            #expect(keyType == "ssh-ed25519")
            #expect(fingerprint == expected)
        }
    }

    @Test(arguments: ServerKind.allCases)
    func acceptNewRecordsALineThatOpenSSHFinds(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        var configuration = server.configuration()
        configuration.knownHostsFile = scratchFile("known_hosts")
        configuration.hostKeyPolicy = .acceptNew
        let connection = try await SSHConnection.connect(configuration)
        await connection.close()
        let found = try Shell.run("/usr/bin/ssh-keygen", ["-F", "[127.0.0.1]:\(server.port)", "-f", configuration.knownHostsFile])
        #expect(found.contains("ssh-ed25519"))
        // And the recorded key is now trusted under strict checking.
        configuration.hostKeyPolicy = .strict
        await (try await SSHConnection.connect(configuration)).close()
    }

    @Test(arguments: ServerKind.allCases)
    func aChangedKeyIsRefusedEvenUnderAcceptNew(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let otherKey = scratchFile("other")
        try Shell.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", otherKey])
        let otherPublic = try String(contentsOfFile: otherKey + ".pub", encoding: .utf8).split(separator: " ").prefix(2).joined(
            separator: " ")
        var configuration = server.configuration()
        configuration.knownHostsFile = scratchFile("changed")
        try "[127.0.0.1]:\(server.port) \(otherPublic)\n".write(toFile: configuration.knownHostsFile, atomically: true, encoding: .utf8)
        configuration.hostKeyPolicy = .acceptNew
        await #expect(throws: SSHError.self) { _ = try await SSHConnection.connect(configuration) }
        do {
            _ = try await SSHConnection.connect(configuration)
        } catch let error as SSHError {
            guard case .hostKeyChanged = error else {
                Issue.record("expected hostKeyChanged, got \(error)")
                return
            }
            #expect(error.description.contains("HOST KEY CHANGED"))
        }
        let contents = try String(contentsOfFile: configuration.knownHostsFile, encoding: .utf8)
        #expect(contents.split(separator: "\n").count == 1, "the file must not gain the new key")
    }

    @Test(arguments: ServerKind.allCases)
    func hashedKnownHostsEntriesAreRecognised(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let hashed = scratchFile("hashed")
        try FileManager.default.copyItem(atPath: server.knownHostsPath, toPath: hashed)
        try Shell.run("/usr/bin/ssh-keygen", ["-H", "-f", hashed])
        #expect(try String(contentsOfFile: hashed, encoding: .utf8).hasPrefix("|1|"))
        var configuration = server.configuration()
        configuration.knownHostsFile = hashed
        await (try await SSHConnection.connect(configuration)).close()
    }
}
