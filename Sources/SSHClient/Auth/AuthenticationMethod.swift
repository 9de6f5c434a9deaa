/// One way of proving who we are to the server. ``SSHConnection`` tries them in order.
public enum AuthenticationMethod: Sendable {
    /// A private key file (ed25519 or ECDSA; OpenSSH or PEM format), optionally encrypted.
    case privateKey(path: String, passphrase: String? = nil)
    /// A private key given as text; build it with ``privateKey(pem:passphrase:)``.
    case privateKeyText(String, passphrase: String?)
    /// A password, sent with the `password` method.
    case password(String)
    /// The identities of the ssh-agent listening on `SSH_AUTH_SOCK` (or the given socket path).
    case agent(socketPath: String? = nil)
    /// The `keyboard-interactive` method: `respond` answers each round of prompts, one answer per
    /// prompt, and may take its time (a person typing a code): that time does not count against
    /// the connect timeout; it has ``SSHConnectionConfiguration/promptTimeout``, then
    /// ``SSHError/keyboardInteractiveTimedOut(host:after:)``. Cancelling the connect ends the wait.
    case keyboardInteractive(respond: @Sendable (KeyboardInteractiveChallenge) async -> [String])

    /// A private key given as text, as it would be in a key file: OpenSSH format
    /// (`BEGIN OPENSSH PRIVATE KEY`) or PEM (`BEGIN EC PRIVATE KEY`, PKCS#8), ed25519 or ECDSA,
    /// optionally encrypted. For keys kept in a keychain or secret store rather than on disk.
    /// The text and the passphrase are never logged nor put in an error.
    public static func privateKey(pem: String, passphrase: String? = nil) -> AuthenticationMethod {
        .privateKeyText(pem, passphrase: passphrase)
    }

    /// Keyboard-interactive answering every prompt with `password`, as most servers ask for just that.
    public static func keyboardInteractive(password: String) -> AuthenticationMethod {
        .keyboardInteractive { challenge in challenge.prompts.map { _ in password } }
    }

    /// The SSH method name, as servers list it.
    var methodName: String {
        switch self {
        case .privateKey, .privateKeyText, .agent: return "publickey"
        case .password: return "password"
        case .keyboardInteractive: return "keyboard-interactive"
        }
    }

    /// How the method is named in an error message; never includes a secret.
    var displayName: String {
        switch self {
        case .privateKey(let path, _): return "key \(path)"
        case .privateKeyText(let text, _): return PrivateKeyFile.inspect(text: text).inMemoryLabel
        case .password: return "password"
        case .agent: return "ssh-agent"
        case .keyboardInteractive: return "keyboard-interactive"
        }
    }
}

/// One round of questions from the server in keyboard-interactive authentication.
public struct KeyboardInteractiveChallenge: Sendable {
    /// One question.
    public struct Prompt: Sendable {
        /// The text to show, such as "Password: ".
        public var text: String
        /// Whether the answer may be shown while typed.
        public var echo: Bool
    }

    /// The name of the round, often empty.
    public var name: String
    /// Instructions for the round, often empty.
    public var instruction: String
    /// The questions; the answer array must have one string per prompt.
    public var prompts: [Prompt]
}
