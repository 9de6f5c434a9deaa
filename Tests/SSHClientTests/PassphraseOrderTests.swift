import Foundation
import RWSTestSupport
import SSHClient
import Synchronization
import Testing

/// An encrypted key's passphrase is asked for only when the key's turn comes, after the agent,
/// as `ssh` asks; the time a person takes is not the link's.
@Suite struct PassphraseOrderTests {
    private static let passphrase = "correct horse"

    /// A folder with an encrypted ed25519 key the server accepts (`locked`, its `.pub` beside
    /// it) and an agent holding `strangers` keys the server does not know, then, when
    /// `agentHoldsTheKey`, an unlocked copy of `locked`.
    private struct Setup {
        let folder: String
        let locked: String
        let agent: TestSSHAgent

        init(server: TestSSHServer, strangers: Int, agentHoldsTheKey: Bool) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("rws-passphrase-\(UUID().uuidString.prefix(8))").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            locked = folder + "/id_locked"
            try Shell.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", PassphraseOrderTests.passphrase, "-f", locked])
            try server.authorize(publicKeyFile: locked + ".pub")
            agent = try TestSSHAgent(socket: folder + "/agent.sock")
            do {
                for index in 0..<strangers {
                    let stranger = folder + "/stranger-\(index)"
                    try Shell.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", stranger])
                    try agent.add(keyFile: stranger)
                }
                if agentHoldsTheKey { try agent.add(keyFile: locked, passphrase: PassphraseOrderTests.passphrase) }
            } catch {
                stop()
                throw error
            }
        }

        func stop() {
            agent.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// What `askPassphrase` was asked, after how long it answers, and what (`answers` in turn, the
    /// last one again once they run out).
    private final class Asker: Sendable {
        let asked = Mutex<[PassphraseChallenge]>([])
        let delay: Duration
        let answers: [String]

        init(delay: Duration = .zero, answers: [String] = [PassphraseOrderTests.passphrase]) {
            self.delay = delay
            self.answers = answers
        }

        func answer(_ challenge: PassphraseChallenge) async -> String? {
            let count = asked.withLock { asked in
                asked.append(challenge)
                return asked.count
            }
            try? await Task.sleep(for: delay)
            return answers[min(count, answers.count) - 1]
        }
    }

    private func configuration(_ server: TestSSHServer, _ setup: Setup, asker: Asker) -> SSHConnectionConfiguration {
        var configuration = server.configuration()
        configuration.authentication = [.agent(socketPath: setup.agent.socket), .privateKey(path: setup.locked)]
        configuration.askPassphrase = { await asker.answer($0) }
        return configuration
    }

    @Test(arguments: ServerKind.allCases)
    func aKeyTheAgentHoldsGetsInWithoutAskingForTheFilesPassphrase(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        // Seven strangers first in the agent: more than OpenSSH's MaxAuthTries (6) unless the
        // agent's copy of the configured key is tried first, as ssh tries it.
        let setup = try Setup(server: server, strangers: 7, agentHoldsTheKey: true)
        defer { setup.stop() }
        let asker = Asker()
        let ssh = try await SSHConnection.connect(configuration(server, setup, asker: asker))
        await ssh.close()
        #expect(asker.asked.withLock { $0 }.isEmpty, "a passphrase was asked for though the agent held the key")
    }

    @Test(arguments: ServerKind.allCases)
    func anEncryptedKeyIsAskedForOnceItsTurnComesAndThePersonsTimeIsNotTheLinks(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        let setup = try Setup(server: server, strangers: 1, agentHoldsTheKey: false)
        defer { setup.stop() }
        // The answer takes longer than the whole connect timeout, which still leaves a loaded machine time for the link.
        let asker = Asker(delay: .seconds(7))
        var configuration = configuration(server, setup, asker: asker)
        configuration.connectTimeout = .seconds(5)
        let ssh = try await SSHConnection.connect(configuration)
        let echoed = try await ssh.run("echo in")
        await ssh.close()
        #expect(echoed.stdoutText == "in\n")
        let asked = asker.asked.withLock { $0 }
        #expect(
            asked == [PassphraseChallenge(key: setup.locked, keyType: "ssh-ed25519", host: server.configuration().host, user: server.user)])
    }

    @Test(arguments: ServerKind.allCases)
    func aWrongPassphraseIsAskedForAgainUpToThreeTimesAsSshAsks(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        let setup = try Setup(server: server, strangers: 0, agentHoldsTheKey: false)
        defer { setup.stop() }
        let second = Asker(answers: ["wrong", Self.passphrase])
        await (try await SSHConnection.connect(configuration(server, setup, asker: second))).close()
        #expect(second.asked.withLock { $0.map(\.attempt) } == [1, 2])

        let never = Asker(answers: ["wrong", "still wrong", "wrong again", Self.passphrase])
        await #expect(throws: SSHError.wrongPassphrase(path: setup.locked, passphraseGiven: true)) {
            try await SSHConnection.connect(configuration(server, setup, asker: never))
        }
        #expect(never.asked.withLock { $0.map(\.attempt) } == [1, 2, 3])
    }

    @Test func aPassphraseNotGivenInTimeSaysSoAndNamesTheKey() async throws {
        let server = try TestSSHServer(.openssh)
        defer { server.stop() }
        let setup = try Setup(server: server, strangers: 1, agentHoldsTheKey: false)
        defer { setup.stop() }
        var configuration = configuration(server, setup, asker: Asker(delay: .seconds(30)))
        configuration.promptTimeout = .seconds(1)
        await #expect(throws: SSHError.passphraseTimedOut(key: setup.locked, after: .seconds(1))) {
            try await SSHConnection.connect(configuration)
        }
    }
}
