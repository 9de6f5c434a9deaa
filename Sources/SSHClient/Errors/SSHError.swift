import Foundation

/// Everything that can go wrong talking to a remote box, each case with the context a person
/// needs to fix it.
///
/// ``description`` is one line saying what failed and what to do about it.
public enum SSHError: Error, Sendable, Equatable {
    /// The host name did not resolve to an address.
    case hostNotFound(host: String, reason: String)
    /// No TCP connection could be made to the host and port.
    case connectionRefused(host: String, port: Int, reason: String)
    /// The TCP connection or the SSH handshake took longer than the connect timeout.
    case connectTimedOut(host: String, port: Int, after: Duration)
    /// The TCP connection was made but the SSH handshake did not finish within the connect
    /// timeout; `bannerReceived` is false when the server sent not even its identification line
    /// (something other than sshd may listen there, or sshd is stuck).
    case handshakeTimedOut(host: String, port: Int, after: Duration, bannerReceived: Bool)
    /// The server closed the TCP connection before sending its SSH identification line: it
    /// refuses connections for now (sshd's `MaxStartups`, dropbear's few unauthenticated
    /// connections per address), or it is not sshd.
    case closedBeforeIdentification(host: String, port: Int)
    /// The SSH handshake (banner, key exchange) failed.
    case handshakeFailed(host: String, port: Int, reason: String)
    /// The host's key is not in the known hosts file and the policy is strict.
    case hostKeyUnknown(host: String, port: Int, keyType: String, fingerprint: String, knownHostsFile: String)
    /// The host presented a key different from the one recorded for it: refused under every policy.
    case hostKeyChanged(host: String, port: Int, keyType: String, fingerprint: String, knownHostsFile: String)
    /// The host presented a key that a `@revoked` line of the known hosts file names: refused under every policy.
    case hostKeyRevoked(host: String, port: Int, keyType: String, fingerprint: String, knownHostsFile: String)
    /// A ``HostKeyPolicy/ask(_:)`` callback refused the host key with this fingerprint.
    case hostKeyRejected(host: String, port: Int, keyType: String, fingerprint: String)
    /// A ``HostKeyPolicy/ask(_:)`` callback gave no decision within
    /// ``SSHConnectionConfiguration/promptTimeout``.
    case hostKeyDecisionTimedOut(host: String, port: Int, after: Duration)
    /// The known hosts file could not be read or written.
    case knownHostsFileFailed(path: String, reason: String)
    /// The server accepted none of the offered credentials.
    case authenticationFailed(user: String, host: String, tried: [String], allowedByServer: [String])
    /// A private key file could not be read.
    case keyFileUnreadable(path: String, reason: String)
    /// The private key is encrypted and the passphrase was wrong or missing.
    case wrongPassphrase(path: String, passphraseGiven: Bool)
    /// ``SSHConnectionConfiguration/askPassphrase`` gave no answer about this key within
    /// ``SSHConnectionConfiguration/promptTimeout``.
    case passphraseTimedOut(key: String, after: Duration)
    /// No answer to the server's keyboard-interactive prompts came within the prompt timeout.
    case keyboardInteractiveTimedOut(host: String, after: Duration)
    /// The key type cannot be used with this libssh2 against this server (RSA with libssh2 < 1.11).
    case unsupportedKeyType(path: String, keyType: String, reason: String)
    /// The ssh-agent could not be reached or offered no usable identity.
    case agentFailed(reason: String)
    /// A command ran past its timeout; all of its remote processes were stopped.
    case timedOut(command: String, after: Duration)
    /// The task running a command was cancelled; all of its remote processes were stopped.
    case cancelled(command: String)
    /// A command or shell was to be stopped (timeout, cancellation, close) but processes of it
    /// still ran after SIGKILL: `survivors` are their PIDs on the remote box, `commandLines` what
    /// each of them runs (as far as the box would tell). `survivors` is empty when the stop could
    /// not be checked at all (no process table, or the kill channel failed).
    case stopFailed(command: String, survivors: [Int], commandLines: [Int: String] = [:])
    /// A command or shell was to be stopped, but whether its processes are gone could not be
    /// checked: `reason` says why (the box has no process table to read, the stop could not
    /// run, the command never reported its PID). It may still run.
    case stopUnverified(command: String, reason: String)
    /// A persistent shell was asked for, but the box has neither tmux nor GNU screen.
    case persistentShellUnavailable(host: String)
    /// No tmux or screen session on the box has the persistent shell's name.
    case persistentShellNotFound(name: String, host: String)
    /// The connection to the server was lost (peer gone, keepalive unanswered, socket error).
    case connectionLost(reason: String)
    /// The connection was closed by this side before the operation finished.
    case connectionClosed
    /// The server refused to open a channel or to start the requested program.
    case channelFailed(operation: String, reason: String)
    /// A caller-supplied value cannot be used.
    case invalidArgument(String)
    /// A command line longer than one SSH exec request carries (``SSHConnection/maximumCommandLength``
    /// bytes, with rws's wrapper): long lists go on the command's standard input instead.
    case commandTooLong(length: Int, limit: Int)
    /// The box's shell could not open a file while doing `step` (every redirection failed): the
    /// box is out of file descriptors, or allows its shells too few (`openFileLimit`, its
    /// `ulimit -n`, where the shell said). Nothing was read or changed.
    case boxOutOfDescriptors(step: String, openFileLimit: Int?)
    /// A libssh2 call failed in a way not covered above.
    case libssh2(operation: String, code: Int32, message: String)
}

extension SSHError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .hostNotFound(let host, let reason):
            return "cannot resolve host \"\(host)\": \(reason); check the host name"
        case .connectionRefused(let host, let port, let reason):
            return "cannot connect to \(host) port \(port): \(reason); check that sshd runs there and the port is right"
        case .connectTimedOut(let host, let port, let after):
            return "connecting to \(host) port \(port) timed out after \(after.shortDescription); check the address and firewall,"
                + " or raise the connect timeout"
        case .handshakeTimedOut(let host, let port, let after, let bannerReceived):
            guard bannerReceived else {
                return "\(host) port \(port) took the connection but sent no SSH identification within \(after.shortDescription): "
                    + "check that the port is sshd's and not another service's, and that sshd is not stuck or overloaded"
            }
            return "the SSH handshake with \(host) port \(port) did not finish within \(after.shortDescription): the server or the "
                + "link is very slow; retry, or raise the connect timeout"
        case .closedBeforeIdentification(let host, let port):
            return "\(host) port \(port) closed the connection before sending its SSH identification: the server may be limiting "
                + "connections (sshd's MaxStartups, dropbear's few unauthenticated connections per address) or the port is not "
                + "sshd's; retry in a moment, and check the port"
        case .handshakeFailed(let host, let port, let reason):
            return "SSH handshake with \(host) port \(port) failed: \(reason)"
        case .hostKeyUnknown(let host, let port, let keyType, let fingerprint, let file):
            return "host key of \(HostKeyName.knownHostsName(host: host, port: port)) is not known (\(keyType) \(fingerprint)) in \(file); "
                + "verify the fingerprint, then connect once with --accept-new-host-key to record it"
        case .hostKeyChanged(let host, let port, let keyType, let fingerprint, let file):
            return "HOST KEY CHANGED for \(HostKeyName.knownHostsName(host: host, port: port)): it now presents \(keyType) \(fingerprint), "
                + "which does not match \(file); this may be an attack. If the change is expected, remove the old entry "
                + "(ssh-keygen -R '\(HostKeyName.knownHostsName(host: host, port: port))' -f \(file)) and connect again"
        case .hostKeyRevoked(let host, let port, let keyType, let fingerprint, let file):
            return "host key of \(HostKeyName.knownHostsName(host: host, port: port)) (\(keyType) \(fingerprint)) is marked @revoked in "
                + "\(file); refusing to connect. The server must get a new host key; ask its administrator"
        case .hostKeyDecisionTimedOut(let host, let port, let after):
            return "no decision came about the host key of \(HostKeyName.knownHostsName(host: host, port: port)) within "
                + "\(after.shortDescription); connect again and answer the question"
        case .hostKeyRejected(let host, let port, let keyType, let fingerprint):
            return "host key of \(HostKeyName.knownHostsName(host: host, port: port)) (\(keyType) \(fingerprint)) was refused by "
                + "the host key approval"
        case .knownHostsFileFailed(let path, let reason):
            return "known hosts file \(path): \(reason)"
        case .authenticationFailed(let user, let host, let tried, let allowed):
            let triedText = tried.isEmpty ? "no credentials were offered" : "tried " + tried.joined(separator: ", ")
            return "authentication as \(user) on \(host) failed (\(triedText); the server allows \(allowed.joined(separator: ", "))); "
                + "give a key with --identity or a password with --password-env"
        case .keyFileUnreadable(let path, let reason):
            return "cannot read private key \(path): \(reason)"
        case .wrongPassphrase(let path, let given):
            return given
                ? "wrong passphrase for private key \(path)"
                : "private key \(path) is encrypted and no passphrase was given: run rws on a terminal to be asked for it, "
                    + "or put it in an environment variable named by --passphrase-env (or RWS_KEY_PASSPHRASE), "
                    + "or add the key to your ssh-agent (ssh-add \(path))"
        case .passphraseTimedOut(let key, let after):
            return "no passphrase for private key \(key) came within \(after.shortDescription); connect again and answer the "
                + "question, or add the key to your ssh-agent (ssh-add \(key))"
        case .keyboardInteractiveTimedOut(let host, let after):
            return "no answer to \(host)'s keyboard-interactive prompts came within \(after.shortDescription); connect again and "
                + "answer them"
        case .unsupportedKeyType(let path, let keyType, let reason):
            return "key \(path) (\(keyType)) cannot be used: \(reason)"
        case .agentFailed(let reason):
            return "ssh-agent: \(reason)"
        case .timedOut(let command, let after):
            return "command timed out after \(after.shortDescription) and was stopped: \(command.abbreviatedCommand)"
        case .cancelled(let command):
            return "command was cancelled and stopped: \(command.abbreviatedCommand)"
        case .stopUnverified(let command, let reason):
            return "could not verify that the command stopped (\(reason)); it may still be running on the box: "
                + command.abbreviatedCommand
        case .stopFailed(let command, let survivors, let commandLines):
            let listed = survivors.map { pid in commandLines[pid].map { "\n  \(pid) \($0.abbreviatedCommand)" } ?? "\n  \(pid)" }
            return "could not stop: PIDs \(survivors.map(String.init).joined(separator: " ")) still running on the remote box "
                + "(another user's process, or stuck in the kernel): \(command.abbreviatedCommand)" + listed.joined()
        case .persistentShellUnavailable(let host):
            return "\(host) has neither tmux nor screen, which persistent shells need: install one on the box (e.g. apt install tmux)"
        case .persistentShellNotFound(let name, let host):
            return "no persistent shell named \(name) on \(host)"
        case .connectionLost(let reason):
            return "connection lost: \(reason)"
        case .connectionClosed:
            return "the connection was closed"
        case .channelFailed(let operation, let reason):
            return "\(operation) failed: \(reason)"
        case .invalidArgument(let message):
            return message
        case .commandTooLong(let length, let limit):
            return "the command line is \(length) bytes and one SSH exec request carries at most \(limit): "
                + "pass long lists on the command's standard input"
        case .boxOutOfDescriptors(let step, let limit):
            let allowed = limit.map { " (it may open \($0); ulimit -n there)" } ?? ""
            return "the box's shell could not open a file while \(step)\(allowed): the box is out of file descriptors. "
                + "End what holds many files open there, or raise its limit, and try again; nothing was changed"
        case .libssh2(let operation, let code, let message):
            return "\(operation) failed (libssh2 error \(code)): \(message)"
        }
    }

    public var errorDescription: String? { description }

    /// For ``connectionLost(reason:)``, how the link was lost, without what rws adds about a
    /// command that may outlive it (its PID and how to stop it): for a caller whose command is a
    /// helper of its own (a follower, a reader) rather than what the user runs. Nil otherwise.
    public var linkLossReason: String? {
        guard case .connectionLost(let reason) = self else { return nil }
        return ExecChannel.linkLossOnly(reason)
    }
}

extension String {
    /// The first line of a command, cut to a length that fits an error message.
    var abbreviatedCommand: String {
        let firstLine = split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let cut = firstLine.count > 80 ? String(firstLine.prefix(77)) + "..." : firstLine
        return firstLine == self ? cut : cut + " ..."
    }
}

extension Duration {
    /// "1.5s", "250ms": short enough for an error message.
    var shortDescription: String {
        let milliseconds = Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
        if milliseconds < 1000 { return "\(Int(milliseconds.rounded()))ms" }
        let seconds = milliseconds / 1000
        return seconds == seconds.rounded() ? "\(Int(seconds))s" : String(format: "%.1fs", seconds)
    }
}
