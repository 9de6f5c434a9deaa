extension AuthenticationMethod: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The method without its secret: "key /path", "in-memory key (ssh-ed25519)", "password"...
    /// so that printing a method, or a configuration holding it, never shows a password, a
    /// passphrase or a key's text.
    public var description: String { displayName }

    /// The same as ``description``.
    public var debugDescription: String { displayName }

    /// No children: `dump` and reflection show the redacted description only.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
}
