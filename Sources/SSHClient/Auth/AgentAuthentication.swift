import CLibSSH2
import Foundation

/// Public key authentication with the identities an ssh-agent holds.
struct AgentAuthentication {
    let transport: SSHTransport
    let waiter: SocketWaiter
    let user: String

    func authenticate(socketPath: String?) throws(SSHError) -> Bool {
        guard let agent = libssh2_agent_init(transport.raw) else {
            throw .agentFailed(reason: "libssh2 could not create an agent handle")
        }
        defer {
            libssh2_agent_disconnect(agent)
            libssh2_agent_free(agent)
        }
        let path = socketPath ?? ProcessInfo.processInfo.environment["SSH_AUTH_SOCK"]
        guard let path, !path.isEmpty else { throw .agentFailed(reason: "SSH_AUTH_SOCK is not set: start ssh-agent or give a key") }
        libssh2_agent_set_identity_path(agent, path)
        guard libssh2_agent_connect(agent) == 0 else { throw .agentFailed(reason: "cannot connect to the agent at \(path)") }
        guard libssh2_agent_list_identities(agent) == 0 else { throw .agentFailed(reason: "the agent did not list its identities") }
        var previous: UnsafeMutablePointer<libssh2_agent_publickey>?
        var identity: UnsafeMutablePointer<libssh2_agent_publickey>?
        var offered = 0
        while libssh2_agent_get_identity(agent, &identity, previous) == 0, let current = identity {
            offered += 1
            if try waiter.retry({ libssh2_agent_userauth(agent, user, current) }) == 0 { return true }
            previous = current
        }
        if offered == 0 { throw .agentFailed(reason: "the agent holds no identities (ssh-add adds one)") }
        return false
    }
}
