import Foundation
import Logging

/// Tries the configured authentication methods in order, and turns libssh2's failures into
/// errors that say which credential was wrong and why.
struct Authenticator {
    let configuration: SSHConnectionConfiguration
    let transport: SSHTransport
    /// Its deadline moves on by the time a person took over a passphrase or keyboard-interactive
    /// prompts: that is not the link's time.
    private(set) var waiter: SocketWaiter

    init(configuration: SSHConnectionConfiguration, transport: SSHTransport, waiter: SocketWaiter) {
        self.configuration = configuration
        self.transport = transport
        self.waiter = waiter
    }

    private var user: String { configuration.user }

    /// Tries each method in turn. The server's list of allowed methods is asked for only to
    /// explain a failure: asking first costs a failed "none" attempt, which OpenSSH delays ~10 ms.
    mutating func authenticate() throws(SSHError) {
        var tried: [String] = []
        var specificFailure: SSHError?
        for method in configuration.authentication {
            tried.append(method.displayName)
            configuration.logger.debug("trying authentication", metadata: ["method": "\(method.displayName)"])
            do {
                if try attempt(method) { return }
            } catch {
                try waiter.cancellation?.check()  // giving up is no failure of this method
                // A precise diagnosis (wrong passphrase, RSA) beats the generic "nothing worked",
                // and a key's beats an agent that could not help (none running, no keys in it).
                if specificFailure == nil || specificFailure?.isAgentFailure == true { specificFailure = error }
            }
        }
        let allowed = try allowedMethods()
        if transport.isAuthenticated { return }  // the server took "none"
        // A link that failed during an attempt fails the attempt too, and the list: that is no
        // refusal, and "authentication failed; give a key" would send the user the wrong way.
        let (code, message) = transport.lastError
        if allowed.isEmpty, LibSSH2Code.isFatal(code) {
            if let said = transport.context.disconnectMessage {
                throw .connectionLost(
                    reason: "\(configuration.host) ended the connection during authentication: \(said)" + advice(for: said))
            }
            throw .connectionLost(reason: "the link to \(configuration.host) failed during authentication (\(message))")
        }
        if let specificFailure { throw specificFailure }
        throw .authenticationFailed(user: user, host: configuration.host, tried: tried, allowedByServer: allowed)
    }

    /// What to do about the reason a server gave for ending the connection, where rws knows.
    private func advice(for reason: String) -> String {
        guard reason.localizedCaseInsensitiveContains("too many authentication failures") else { return "" }
        return " (each key tried counts against the server's MaxAuthTries: name the key with IdentityFile and IdentitiesOnly yes "
            + "in the SSH config, or --identity, or hold fewer keys in the agent)"
    }

    private func allowedMethods() throws(SSHError) -> [String] {
        let list = try waiter.retry { transport.allowedAuthenticationMethods(user: user) }
        return list?.split(separator: ",").map(String.init) ?? []
    }

    /// True when the method authenticated us; false when the server said no; throws for a local problem.
    private mutating func attempt(_ method: AuthenticationMethod) throws(SSHError) -> Bool {
        switch method {
        case .privateKey(let path, let passphrase):
            return try authenticateWithKey(path: path, passphrase: passphrase)
        case .privateKeyText(let text, let passphrase):
            return try authenticateWithKey(text: text, passphrase: passphrase)
        case .password(let password):
            let rc = try waiter.retry { transport.authenticate(user: user, password: password) }
            return rc == 0
        case .agent(let socketPath):
            return try AgentAuthentication(transport: transport, waiter: waiter, user: user)
                .authenticate(socketPath: socketPath, preferring: configuredPublicKeys)
        case .keyboardInteractive(let respond):
            return try authenticateKeyboardInteractive(respond)
        }
    }

    /// Keyboard-interactive: libssh2 asks for the answers in a callback of its call, which waits
    /// for `respond` (a person, maybe) up to the prompt timeout; that time moves the deadline on.
    private mutating func authenticateKeyboardInteractive(
        _ respond: @escaping @Sendable (KeyboardInteractiveChallenge) async -> [String]
    ) throws(SSHError) -> Bool {
        let personTime = PersonTime()
        let limit = configuration.promptTimeout
        transport.context.keyboardInteractive = { [cancellation = waiter.cancellation] challenge in
            let asked = ContinuousClock.now
            let answered = BlockingBridge.run(until: asked + limit, cancellation: cancellation) { await respond(challenge) }
            personTime.add(ContinuousClock.now - asked, timedOut: answered == nil && cancellation?.isCancelled != true)
            guard case .success(let answers)? = answered else { return [] }
            return answers
        }
        defer { transport.context.keyboardInteractive = nil }
        var waiting = waiter
        waiting.personTime = personTime
        let rc = try waiting.retry { transport.authenticateKeyboardInteractive(user: user) }
        try waiter.cancellation?.check()
        if personTime.timedOut { throw .keyboardInteractiveTimedOut(host: configuration.host, after: limit) }
        waiter = waiter.movedOn(by: personTime.spent)
        return rc == 0
    }

    private mutating func authenticateWithKey(path: String, passphrase: String?) throws(SSHError) -> Bool {
        let key = try PrivateKeyFile.inspect(path: path)
        return try authenticate(key, label: path, passphrase: passphrase) { [transport, user] passphrase in
            transport.authenticate(user: user, keyFile: path, passphrase: passphrase)
        }
    }

    /// The same as a key file, from text: libssh2 derives the public key from the private one.
    private mutating func authenticateWithKey(text: String, passphrase: String?) throws(SSHError) -> Bool {
        let key = PrivateKeyFile.inspect(text: text)
        let bytes = Array(text.utf8)
        return try authenticate(key, label: key.inMemoryLabel, passphrase: passphrase) { [transport, user] passphrase in
            transport.authenticate(user: user, keyText: bytes, passphrase: passphrase)
        }
    }

    /// How often a person is asked for a key's passphrase before a wrong one counts: ssh's
    /// `NumberOfPasswordPrompts` default.
    static let passphrasePrompts = 3

    /// One key, through `call` (one libssh2 attempt with a passphrase): with the passphrase given;
    /// else, when it is encrypted and ``SSHConnectionConfiguration/askPassphrase`` is set, asked
    /// for when its turn comes, and asked again after a wrong one, up to ``passphrasePrompts`` times.
    private mutating func authenticate(
        _ key: PrivateKeyFile, label: String, passphrase given: String?, with call: (String?) -> Int32
    ) throws(SSHError) -> Bool {
        let asking = given == nil && key.isEncrypted && configuration.askPassphrase != nil
        var passphrase = given
        var attempt = 0
        while true {
            if asking {
                attempt += 1
                passphrase = try askPassphrase(for: key, named: label, attempt: attempt)
            }
            let rc = try waiter.retry { call(passphrase) }
            let wrong = LibSSH2Code.keyFile.contains(rc) && passphrase?.isEmpty == false
            if asking, wrong, attempt < Self.passphrasePrompts { continue }
            return try interpretKeyResult(rc, key: key, label: label, passphrase: passphrase)
        }
    }

    /// The public keys of the configured key files and texts, in their order: the agent's copies go first.
    private var configuredPublicKeys: [[UInt8]] {
        configuration.authentication.compactMap { method in
            switch method {
            case .privateKey(let path, _): return (try? PrivateKeyFile.inspect(path: path))?.publicKey
            case .privateKeyText(let text, _): return PrivateKeyFile.inspect(text: text).publicKey
            case .password, .agent, .keyboardInteractive: return nil
            }
        }
    }

    /// The passphrase of an encrypted key given without one, from ``SSHConnectionConfiguration/askPassphrase``;
    /// nil when the key is not encrypted, nobody can be asked, or the answer was to skip it.
    private mutating func askPassphrase(for key: PrivateKeyFile, named name: String, attempt: Int) throws(SSHError) -> String? {
        guard key.isEncrypted, let ask = configuration.askPassphrase else { return nil }
        let challenge = PassphraseChallenge(key: name, keyType: key.keyType, host: configuration.host, user: user, attempt: attempt)
        configuration.logger.debug("asking for a key's passphrase", metadata: ["key": "\(name)"])
        let asked = ContinuousClock.now
        let limit = configuration.promptTimeout
        let answered = BlockingBridge.run(until: asked + limit, cancellation: waiter.cancellation) { await ask(challenge) }
        try waiter.cancellation?.check()
        guard case .success(let answer)? = answered else { throw .passphraseTimedOut(key: name, after: limit) }
        waiter = waiter.movedOn(by: ContinuousClock.now - asked)
        return answer
    }

    /// libssh2 reports every local key problem as one "file" error: tell the cases apart.
    private func interpretKeyResult(_ rc: Int32, key: PrivateKeyFile, label: String, passphrase: String?) throws(SSHError) -> Bool {
        switch rc {
        case 0:
            return true
        case _ where LibSSH2Code.keyFile.contains(rc):
            if key.isEncrypted { throw .wrongPassphrase(path: label, passphraseGiven: passphrase?.isEmpty == false) }
            if key.keyType == "ssh-rsa", !supportsRSASHA2 { throw rsaUnsupported(path: label) }
            throw .keyFileUnreadable(path: label, reason: transport.lastError.message)
        default:
            if key.keyType == "ssh-rsa", !supportsRSASHA2 { throw rsaUnsupported(path: label) }
            return false
        }
    }

    private func rsaUnsupported(path: String) -> SSHError {
        .unsupportedKeyType(
            path: path, keyType: "ssh-rsa",
            reason:
                "libssh2 \(libSSH2Version) signs RSA keys only with SHA-1 (ssh-rsa), which OpenSSH 8.8 and later refuse; "
                + "use an ed25519 key (ssh-keygen -t ed25519, then add its .pub to the box's ~/.ssh/authorized_keys), "
                + "or let the server accept SHA-1 RSA signatures (PubkeyAcceptedAlgorithms +ssh-rsa in its sshd_config), "
                + "or build rws against libssh2 1.11 or later")
    }

    /// rsa-sha2-256/512 signatures arrived in libssh2 1.11.
    private var supportsRSASHA2: Bool { libSSH2SupportsRSASHA2 }
}

extension SSHError {
    /// Whether this is ``agentFailed(reason:)``.
    fileprivate var isAgentFailure: Bool {
        if case .agentFailed = self { return true }
        return false
    }
}
