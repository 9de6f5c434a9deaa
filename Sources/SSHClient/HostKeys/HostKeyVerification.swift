import Foundation
import Logging

/// Checks the server's host key against the known hosts file under the configured policy.
/// Runs on the connection's I/O thread after the handshake, before authentication.
struct HostKeyVerification {
    let configuration: SSHConnectionConfiguration
    /// Ends the wait for a decision once the caller of ``SSHConnection/connect(_:)`` gives up.
    var cancellation: EstablishmentCancellation? = nil

    func verify(_ transport: SSHTransport, _ knownHosts: KnownHostsFile?) throws(SSHError) {
        guard let knownHosts else { return }
        guard let key = HostKey(transport: transport) else {
            throw .handshakeFailed(host: configuration.host, port: configuration.port, reason: "the server sent no host key")
        }
        let host = configuration.host, port = configuration.port
        configuration.logger.debug("host key", metadata: ["type": "\(key.typeName)", "fingerprint": "\(key.fingerprint)"])
        let changed = SSHError.hostKeyChanged(
            host: host, port: port, keyType: key.typeName, fingerprint: key.fingerprint,
            knownHostsFile: knownHosts.path)
        let status: HostKeyChallenge.Status
        switch knownHosts.check(host: host, port: port, keyBytes: key.bytes, algorithm: key.typeName) {
        case .match:
            return
        case .mismatch:
            status = .changed
        case .revoked:
            // Refused under every policy and never put to the approval, as OpenSSH does.
            throw .hostKeyRevoked(
                host: host, port: port, keyType: key.typeName, fingerprint: key.fingerprint, knownHostsFile: knownHosts.path)
        case .notFound:
            // Known under another key type only: a key swap we cannot vouch for, as OpenSSH warns.
            status = knownHosts.knownAlgorithms(host: host, port: port).isEmpty ? .unknown : .changed
        }
        switch (configuration.hostKeyPolicy, status) {
        case (.insecureAcceptAnything, _):
            return
        case (.strict, .changed), (.acceptNew, .changed):
            throw changed
        case (.strict, .unknown):
            throw .hostKeyUnknown(
                host: host, port: port, keyType: key.typeName, fingerprint: key.fingerprint, knownHostsFile: knownHosts.path)
        case (.acceptNew, .unknown):
            try record(key, in: knownHosts)
        case (.askCaller(let approver), _):
            let challenge = HostKeyChallenge(
                host: host, port: port, keyType: key.typeName, fingerprint: key.fingerprint,
                status: status, knownHostsFile: knownHosts.path)
            try apply(try ask(approver, challenge), to: challenge, key: key, knownHosts: knownHosts, changed: changed)
        }
    }

    private func ask(_ approver: HostKeyApprover, _ challenge: HostKeyChallenge) throws(SSHError) -> HostKeyDecision {
        configuration.logger.debug(
            "asking the host key approval",
            metadata: [
                "fingerprint": "\(challenge.fingerprint)",
                "status": "\(challenge.status)",
            ])
        // A person may take a while: the decision has its own limit, not what is left of the connect timeout.
        let limit = configuration.promptTimeout
        let decided = BlockingBridge.run(until: .now + limit, cancellation: cancellation) { await approver.decide(challenge) }
        try cancellation?.check()
        guard case .success(let decision)? = decided else {
            throw .hostKeyDecisionTimedOut(host: challenge.host, port: challenge.port, after: limit)
        }
        return decision
    }

    private func apply(
        _ decision: HostKeyDecision, to challenge: HostKeyChallenge, key: HostKey,
        knownHosts: KnownHostsFile, changed: SSHError
    ) throws(SSHError) {
        switch (decision, challenge.status) {
        case (.refuse, _):
            throw .hostKeyRejected(
                host: challenge.host, port: challenge.port, keyType: challenge.keyType, fingerprint: challenge.fingerprint)
        case (.acceptChangedKeyOnce, _), (.trustOnce, .unknown):
            configuration.logger.notice(
                "host key trusted once",
                metadata: [
                    "fingerprint": "\(challenge.fingerprint)",
                    "status": "\(challenge.status)",
                ])
        case (.trustAndRecord, .unknown):
            try record(key, in: knownHosts)
        case (.trustOnce, .changed), (.trustAndRecord, .changed):
            throw changed
        }
    }

    private func record(_ key: HostKey, in knownHosts: KnownHostsFile) throws(SSHError) {
        try knownHosts.append(host: configuration.host, port: configuration.port, key: key)
        configuration.logger.notice(
            "recorded a new host key", metadata: ["file": "\(knownHosts.path)", "fingerprint": "\(key.fingerprint)"])
    }
}
