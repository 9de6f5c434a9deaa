import Foundation

/// Public key authentication with the identities an ssh-agent holds.
struct AgentAuthentication {
    let transport: SSHTransport
    let waiter: SocketWaiter
    let user: String

    /// Tries the agent's identities, those whose public key is in `preferred` (the configured
    /// key files') first, as `ssh` does: a full agent would otherwise use up the server's
    /// `MaxAuthTries` before the key that fits.
    func authenticate(socketPath: String?, preferring preferred: [[UInt8]] = []) throws(SSHError) -> Bool {
        guard let agent = LibSSH2Agent(transport) else {
            throw .agentFailed(reason: "libssh2 could not create an agent handle")
        }
        let path = socketPath ?? ProcessInfo.processInfo.environment["SSH_AUTH_SOCK"]
        guard let path, !path.isEmpty else { throw .agentFailed(reason: "SSH_AUTH_SOCK is not set: start ssh-agent or give a key") }
        guard agent.connect(socketPath: path) else { throw .agentFailed(reason: "cannot connect to the agent at \(path)") }
        guard let identities = agent.identities() else { throw .agentFailed(reason: "the agent did not list its identities") }
        if identities.isEmpty { throw .agentFailed(reason: "the agent holds no identities (ssh-add adds one)") }
        let rank = { (identity: LibSSH2Agent.Identity) in preferred.firstIndex(of: identity.publicKey) ?? preferred.count }
        let ordered = identities.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
        for identity in ordered where try waiter.retry({ agent.authenticate(user: user, with: identity) }) == 0 {
            return true
        }
        return false
    }
}
