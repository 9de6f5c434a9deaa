import Foundation
import RWSTestSupport
import SSHClient
import Synchronization
import Testing

/// The `.ask` host key policy: the embedding app sees host, port, key type and fingerprint and decides.
@Suite struct HostKeyApprovalTests {
    private func scratchFile(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("rws-approval-\(UUID().uuidString.prefix(8))-\(name)").path
    }

    /// `ssh-keygen -lf` of the server's host key: the fingerprint a person compares with.
    private func serverFingerprint(_ server: TestSSHServer) throws -> String {
        let line = try Shell.run("/usr/bin/ssh-keygen", ["-l", "-f", server.directory.path + "/host_ed25519.pub"])
        return String(line.split(separator: " ")[1])
    }

    /// A policy answering `decision` and remembering every challenge it was shown.
    private func recordingPolicy(_ decision: HostKeyDecision) -> (HostKeyPolicy, ChallengeLog) {
        let seen = ChallengeLog()
        return (
            .ask { challenge in
                seen.challenges.withLock { $0.append(challenge) }
                return decision
            }, seen
        )
    }

    private func writeOtherKey(for server: TestSSHServer, into file: String) throws {
        let otherKey = scratchFile("other")
        try Shell.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", otherKey])
        let otherPublic = try String(contentsOfFile: otherKey + ".pub", encoding: .utf8).split(separator: " ").prefix(2).joined(
            separator: " ")
        try "[127.0.0.1]:\(server.port) \(otherPublic)\n".write(toFile: file, atomically: true, encoding: .utf8)
    }

    @Test(arguments: ServerKind.allCases)
    func trustOnceConnectsAndLeavesKnownHostsUntouched(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        var configuration = server.configuration()
        configuration.knownHostsFile = scratchFile("known_hosts")
        let (policy, seen) = recordingPolicy(.trustOnce)
        configuration.hostKeyPolicy = policy
        let connection = try await SSHConnection.connect(configuration)
        let result = try await connection.run("echo trusted")
        await connection.close()
        #expect(result.stdoutText == "trusted\n")
        let challenges = seen.challenges.withLock { $0 }
        #expect(
            challenges == [
                HostKeyChallenge(
                    host: "127.0.0.1", port: server.port, keyType: "ssh-ed25519",
                    fingerprint: try serverFingerprint(server), status: .unknown,
                    knownHostsFile: configuration.knownHostsFile)
            ])
        #expect(!FileManager.default.fileExists(atPath: configuration.knownHostsFile))
    }

    @Test(arguments: ServerKind.allCases)
    func trustAndRecordPinsTheKeyWhereOpenSSHFindsIt(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        var configuration = server.configuration()
        configuration.knownHostsFile = scratchFile("known_hosts")
        configuration.hostKeyPolicy = recordingPolicy(.trustAndRecord).0
        await (try await SSHConnection.connect(configuration)).close()
        let found = try Shell.run("/usr/bin/ssh-keygen", ["-F", "[127.0.0.1]:\(server.port)", "-f", configuration.knownHostsFile])
        #expect(found.contains("ssh-ed25519"))
        // Pinned: the next connection is vouched for by the file, the callback is not asked again.
        let (policy, seen) = recordingPolicy(.refuse)
        configuration.hostKeyPolicy = policy
        await (try await SSHConnection.connect(configuration)).close()
        #expect(seen.challenges.withLock { $0 }.isEmpty)
    }

    @Test(arguments: ServerKind.allCases)
    func refusingFailsWithAnErrorNamingTheFingerprint(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        var configuration = server.configuration()
        configuration.knownHostsFile = scratchFile("known_hosts")
        configuration.hostKeyPolicy = recordingPolicy(.refuse).0
        let expected = try serverFingerprint(server)
        do {
            _ = try await SSHConnection.connect(configuration)
            Issue.record("a refused host key connected")
        } catch let error as SSHError {
            #expect(error == .hostKeyRejected(host: "127.0.0.1", port: server.port, keyType: "ssh-ed25519", fingerprint: expected))
            #expect(error.description.contains(expected))
        }
        #expect(!FileManager.default.fileExists(atPath: configuration.knownHostsFile))
    }

    @Test(arguments: ServerKind.allCases)
    func aChangedKeyIsRefusedUnlessTheCallbackExplicitlyAcceptsTheChange(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        var configuration = server.configuration()
        configuration.knownHostsFile = scratchFile("changed")
        try writeOtherKey(for: server, into: configuration.knownHostsFile)
        let before = try String(contentsOfFile: configuration.knownHostsFile, encoding: .utf8)
        for decision in [HostKeyDecision.trustOnce, .trustAndRecord] {
            let (policy, seen) = recordingPolicy(decision)
            configuration.hostKeyPolicy = policy
            await #expect { _ = try await SSHConnection.connect(configuration) } throws: { error in
                guard case SSHError.hostKeyChanged = error else { return false }
                return true
            }
            #expect(seen.challenges.withLock { $0.map(\.status) } == [.changed])
        }
        configuration.hostKeyPolicy = recordingPolicy(.acceptChangedKeyOnce).0
        let connection = try await SSHConnection.connect(configuration)
        #expect(try await connection.run("echo accepted").stdoutText == "accepted\n")
        await connection.close()
        #expect(try String(contentsOfFile: configuration.knownHostsFile, encoding: .utf8) == before, "the file is never rewritten")
    }

    @Test(arguments: ServerKind.allCases)
    func aDecisionSlowerThanTheConnectTimeoutStillConnects(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        var configuration = server.configuration()
        configuration.knownHostsFile = scratchFile("known_hosts")
        configuration.connectTimeout = .seconds(2)
        configuration.hostKeyPolicy = .ask { _ in
            try? await Task.sleep(for: .seconds(3))  // a person reading the fingerprint
            return .trustOnce
        }
        let connection = try await SSHConnection.connect(configuration)
        #expect(try await connection.run("echo connected").stdoutText == "connected\n")
        await connection.close()
    }

    @Test(arguments: ServerKind.allCases)
    func aCallbackThatNeverAnswersEndsAtItsOwnTimeoutWithItsOwnError(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        var configuration = server.configuration()
        configuration.knownHostsFile = scratchFile("known_hosts")
        configuration.promptTimeout = .seconds(2)
        configuration.hostKeyPolicy = .ask { _ in
            try? await Task.sleep(for: .seconds(60))
            return .trustOnce
        }
        let start = ContinuousClock.now
        await #expect(throws: SSHError.hostKeyDecisionTimedOut(host: configuration.host, port: configuration.port, after: .seconds(2))) {
            _ = try await SSHConnection.connect(configuration)
        }
        #expect(ContinuousClock.now - start < .seconds(10))
    }
}

/// The challenges a test's callback was shown.
final class ChallengeLog: Sendable {
    let challenges = Mutex<[HostKeyChallenge]>([])
}
