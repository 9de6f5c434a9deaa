import Foundation
import RWSTestSupport
import SSHClient
import Testing

@Suite struct AuthenticationTests {
    private func keyFile(type: String, passphrase: String = "") throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rws-auth-\(UUID().uuidString.prefix(8))").path
        var arguments = ["-q", "-t", type, "-N", passphrase, "-f", path]
        if type == "rsa" { arguments += ["-b", "2048"] }
        try Shell.run("/usr/bin/ssh-keygen", arguments)
        return path
    }

    private func connect(_ server: TestSSHServer, _ methods: [AuthenticationMethod]) async throws {
        var configuration = server.configuration()
        configuration.authentication = methods
        await (try await SSHConnection.connect(configuration)).close()
    }

    @Test func anEncryptedKeyWorksWithItsPassphrase() async throws {
        let server = try TestSSHServer()
        defer { server.stop() }
        let key = try keyFile(type: "ecdsa", passphrase: "correct horse")
        try server.authorize(publicKeyFile: key + ".pub")
        try await connect(server, [.privateKey(path: key, passphrase: "correct horse")])
    }

    @Test func aWrongPassphraseSaysSo() async throws {
        let server = try SharedTestServer.get()
        let key = try keyFile(type: "ed25519", passphrase: "right")
        await #expect(throws: SSHError.wrongPassphrase(path: key, passphraseGiven: true)) {
            try await connect(server, [.privateKey(path: key, passphrase: "wrong")])
        }
        await #expect(throws: SSHError.wrongPassphrase(path: key, passphraseGiven: false)) {
            try await connect(server, [.privateKey(path: key)])
        }
    }

    @Test func aKeyTheServerDoesNotKnowFailsAuthentication() async throws {
        let server = try SharedTestServer.get()
        let stranger = try keyFile(type: "ed25519")
        do {
            try await connect(server, [.privateKey(path: stranger)])
            Issue.record("a stranger's key was accepted")
        } catch let SSHError.authenticationFailed(user, _, tried, allowed) {
            #expect(user == server.user)
            #expect(tried == ["key \(stranger)"])
            #expect(allowed.contains("publickey"))
        }
    }

    @Test func aWrongPasswordFailsAuthentication() async throws {
        let server = try TestSSHServer(.init(extraConfig: ["PasswordAuthentication yes"]))
        defer { server.stop() }
        do {
            try await connect(server, [.password("certainly-not-the-password")])
            Issue.record("a wrong password was accepted")
        } catch let SSHError.authenticationFailed(_, _, tried, allowed) {
            #expect(tried == ["password"])
            #expect(allowed.contains("password"))
        }
    }

    @Test func anRSAKeyIsExplainedNotJustRefused() async throws {
        let server = try TestSSHServer()
        defer { server.stop() }
        let key = try keyFile(type: "rsa")
        try server.authorize(publicKeyFile: key + ".pub")
        do {
            try await connect(server, [.privateKey(path: key)])
            Issue.record("libssh2 1.10 was not expected to authenticate with RSA against OpenSSH 9")
        } catch let error as SSHError {
            guard case .unsupportedKeyType(_, let type, _) = error else { Issue.record("got \(error)"); return }
            #expect(type == "ssh-rsa")
            #expect(error.description.contains("ed25519"))
        }
    }

    @Test func aMissingKeyFileIsNamed() async throws {
        let server = try SharedTestServer.get()
        await #expect(throws: SSHError.keyFileUnreadable(path: "/nonexistent/key", reason: "no such file")) {
            try await connect(server, [.privateKey(path: "/nonexistent/key")])
        }
    }
}
