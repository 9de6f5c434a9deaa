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

    @Test(arguments: ServerKind.allCases)
    func anEncryptedKeyWorksWithItsPassphrase(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        let key = try keyFile(type: "ecdsa", passphrase: "correct horse")
        try server.authorize(publicKeyFile: key + ".pub")
        try await server.connectAndClose(authenticating: [.privateKey(path: key, passphrase: "correct horse")])
    }

    @Test(arguments: ServerKind.allCases)
    func aWrongPassphraseSaysSo(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let key = try keyFile(type: "ed25519", passphrase: "right")
        await #expect(throws: SSHError.wrongPassphrase(path: key, passphraseGiven: true)) {
            try await server.connectAndClose(authenticating: [.privateKey(path: key, passphrase: "wrong")])
        }
        await #expect(throws: SSHError.wrongPassphrase(path: key, passphraseGiven: false)) {
            try await server.connectAndClose(authenticating: [.privateKey(path: key)])
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aKeyTheServerDoesNotKnowFailsAuthentication(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let stranger = try keyFile(type: "ed25519")
        do {
            try await server.connectAndClose(authenticating: [.privateKey(path: stranger)])
            Issue.record("a stranger's key was accepted")
        } catch let SSHError.authenticationFailed(user, _, tried, allowed) {
            #expect(user == server.user)
            #expect(tried == ["key \(stranger)"])
            #expect(allowed.contains("publickey"))
        }
    }

    /// The fault soak saw a reset during authentication reported as "authentication failed
    /// (…; the server allows )"; here sshd's own process for the connection dies while it checks
    /// the key (its AuthorizedKeysCommand kills it), so the link ends in the middle of the attempt.
    @Test func aLinkThatFailsDuringAuthenticationIsALostConnectionNotARefusal() async throws {
        let server = try TestSSHServer(
            .openssh,
            .init(extraConfig: [#"AuthorizedKeysCommand /bin/sh -c "kill -KILL $PPID""#, "AuthorizedKeysCommandUser root"]))
        defer { server.stop() }
        let stranger = try keyFile(type: "ed25519")
        do {
            try await server.connectAndClose(authenticating: [.privateKey(path: stranger)])
            Issue.record("the connection was made")
        } catch let SSHError.connectionLost(reason) {
            #expect(reason.contains("failed during authentication"), "\(reason)")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aWrongPasswordFailsAuthentication(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind, .init(passwordAuthentication: true))
        defer { server.stop() }
        do {
            try await server.connectAndClose(authenticating: [.password("certainly-not-the-password")])
            Issue.record("a wrong password was accepted")
        } catch let SSHError.authenticationFailed(_, _, tried, allowed) {
            #expect(tried == ["password"])
            #expect(allowed.contains("password"))
        }
    }

    /// libssh2 1.10 signs with SHA-1 `ssh-rsa` only: OpenSSH 8.8+ refuses that, dropbear 2022.83
    /// still accepts it (docs/servers.md).
    @Test(arguments: ServerKind.allCases)
    func anRSAKeyIsExplainedWhereTheServerRefusesSHA1AndWorksWhereItAccepts(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        let key = try keyFile(type: "rsa")
        try server.authorize(publicKeyFile: key + ".pub")
        switch kind {
        case .dropbear, .asyncssh:
            try await server.connectAndClose(authenticating: [.privateKey(path: key)])
        case .openssh:
            do {
                try await server.connectAndClose(authenticating: [.privateKey(path: key)])
                Issue.record("libssh2 1.10 was not expected to authenticate with RSA against OpenSSH 9")
            } catch let error as SSHError {
                guard case .unsupportedKeyType(_, let type, _) = error else {
                    Issue.record("got \(error)")
                    return
                }
                #expect(type == "ssh-rsa")
                #expect(error.description.contains("ed25519"))
            }
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aMissingKeyFileIsNamed(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        await #expect(throws: SSHError.keyFileUnreadable(path: "/nonexistent/key", reason: "no such file")) {
            try await server.connectAndClose(authenticating: [.privateKey(path: "/nonexistent/key")])
        }
    }
}
