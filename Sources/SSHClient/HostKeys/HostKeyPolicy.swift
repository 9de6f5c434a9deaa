/// What to do with a host key that the known hosts file does not vouch for.
///
/// A key that differs from the recorded one is refused under every policy.
public enum HostKeyPolicy: Sendable, Equatable {
    /// Refuse unknown hosts (OpenSSH `StrictHostKeyChecking yes`). The default.
    case strict
    /// Trust an unknown host on first use and append its key to the file (OpenSSH `accept-new`).
    case acceptNew
    /// Check nothing. Only for throwaway test servers: anyone in the middle can read everything.
    case insecureAcceptAnything
}
