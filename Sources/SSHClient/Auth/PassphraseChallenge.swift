/// An encrypted private key whose turn has come in authentication, as shown to
/// ``SSHConnectionConfiguration/askPassphrase``.
///
/// The question comes only when the methods before the key (the agent among them) did not get
/// the connection in, as `ssh` asks only for the key it is about to use.
public struct PassphraseChallenge: Sendable, Equatable {
    /// The key file's path, or a label for a key given as text (its type, never its content).
    public var key: String
    /// The key algorithm when the file says it ("ssh-ed25519", "ecdsa-sha2-nistp256"), else nil.
    public var keyType: String?
    /// The host being connected to, as configured.
    public var host: String
    /// The remote user name.
    public var user: String
    /// 1 for the first question about this key; more when the passphrase given before was wrong
    /// (asked up to three times, as `ssh` asks): an answer kept from before must not be given again.
    public var attempt: Int

    /// A challenge as the connection makes it; public so that apps can build one in their tests.
    public init(key: String, keyType: String?, host: String, user: String, attempt: Int = 1) {
        self.key = key
        self.keyType = keyType
        self.host = host
        self.user = user
        self.attempt = attempt
    }
}
