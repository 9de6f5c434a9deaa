import Foundation
import Logging
import RWSTestSupport
import SSHClient
import Synchronization
import Testing

/// `.privateKey(pem:passphrase:)`: keys that never touch the disk, in the formats ssh-keygen writes.
@Suite struct InMemoryKeyTests {
    /// Generates a key with ssh-keygen and returns its path; `format` "PEM" writes the legacy PEM form.
    private func keyFile(type: String, passphrase: String = "", format: String? = nil) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rws-memkey-\(UUID().uuidString.prefix(8))").path
        var arguments = ["-q", "-t", type, "-N", passphrase, "-f", path]
        if let format { arguments += ["-m", format] }
        try Shell.run("/usr/bin/ssh-keygen", arguments)
        return path
    }

    private func text(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    private func connect(_ server: TestSSHServer, _ method: AuthenticationMethod, logger: Logger? = nil) async throws {
        var configuration = server.configuration()
        configuration.authentication = [method]
        if let logger { configuration.logger = logger }
        let connection = try await SSHConnection.connect(configuration)
        let result = try await connection.run("echo in")
        await connection.close()
        #expect(result.stdoutText == "in\n")
    }

    @Test(arguments: ServerKind.allCases)
    func anEd25519KeyInOpenSSHFormatAuthenticates(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let pem = try text(server.clientKeyPath)
        #expect(pem.hasPrefix("-----BEGIN OPENSSH PRIVATE KEY-----"))
        try await connect(server, .privateKey(pem: pem))
    }

    @Test(arguments: ServerKind.allCases)
    func anEncryptedKeyAuthenticatesWithTheRightPassphraseOnly(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        let key = try keyFile(type: "ed25519", passphrase: "correct horse")
        try server.authorize(publicKeyFile: key + ".pub")
        let pem = try text(key)
        try await connect(server, .privateKey(pem: pem, passphrase: "correct horse"))
        await #expect(throws: SSHError.wrongPassphrase(path: "in-memory key (ssh-ed25519)", passphraseGiven: true)) {
            try await connect(server, .privateKey(pem: pem, passphrase: "battery staple"))
        }
        await #expect(throws: SSHError.wrongPassphrase(path: "in-memory key (ssh-ed25519)", passphraseGiven: false)) {
            try await connect(server, .privateKey(pem: pem))
        }
    }

    @Test(arguments: ServerKind.allCases, [("PEM", ""), ("PEM", "pem passphrase"), ("PKCS8", ""), ("PKCS8", "pkcs8 passphrase")])
    func anECDSAKeyInPEMFormatAuthenticates(kind: ServerKind, format: (String, String)) async throws {
        let (format, passphrase) = format
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        let key = try keyFile(type: "ecdsa", passphrase: passphrase, format: format)
        try server.authorize(publicKeyFile: key + ".pub")
        let pem = try text(key)
        let armour = format == "PEM" ? "EC PRIVATE KEY" : passphrase.isEmpty ? "PRIVATE KEY" : "ENCRYPTED PRIVATE KEY"
        #expect(pem.hasPrefix("-----BEGIN \(armour)-----"))
        try await connect(server, .privateKey(pem: pem, passphrase: passphrase.isEmpty ? nil : passphrase))
    }

    @Test func neitherTheKeyNorThePassphraseReachesErrorsOrLogs() async throws {
        let server = try SharedTestServer.get()
        let secret = "s3cret-\(UUID().uuidString)"
        let key = try keyFile(type: "ed25519", passphrase: secret)
        let pem = try text(key)
        let keyBody = pem.split(separator: "\n")[1]
        let lines = LogLines()
        var logger = Logger(label: "test") { _ in lines }
        logger.logLevel = .trace
        do {
            try await connect(server, .privateKey(pem: pem, passphrase: secret + "-wrong"), logger: logger)
            Issue.record("a wrong passphrase authenticated")
        } catch {
            let description = "\(error)"
            #expect(!description.contains(secret))
            #expect(!description.contains(keyBody))
            #expect(description.contains("in-memory key (ssh-ed25519)"))
        }
        let logged = lines.text
        #expect(logged.contains("trying authentication"))
        #expect(!logged.contains(secret))
        #expect(!logged.contains(keyBody))
    }

    @Test func printingAMethodOrAConfigurationShowsNoSecret() throws {
        let server = try SharedTestServer.get()
        let pem = try text(server.clientKeyPath)
        let keyBody = String(pem.split(separator: "\n")[1])
        let secret = "s3cret-\(UUID().uuidString)"
        var configuration = server.configuration()
        configuration.authentication = [
            .privateKey(pem: pem, passphrase: secret), .password(secret),
            .privateKey(path: "/k/id", passphrase: secret),
        ]
        var dumped = ""
        dump(configuration, to: &dumped)
        for shown in [
            "\(configuration)", String(reflecting: configuration), dumped,
            "\(configuration.authentication)", String(reflecting: configuration.authentication[0]),
        ] {
            #expect(!shown.contains(secret))
            #expect(!shown.contains(keyBody))
        }
        #expect("\(configuration.authentication)" == "[in-memory key (ssh-ed25519), password, key /k/id]")
    }
}

/// A log handler keeping every message and its metadata as text.
struct LogLines: LogHandler, Sendable {
    private let store = LogStore()
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var text: String { store.lines.withLock { $0.joined(separator: "\n") } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        store.lines.withLock { $0.append("\(event.message) \(event.metadata ?? [:])") }
    }
}

final class LogStore: Sendable {
    let lines = Mutex<[String]>([])
}
