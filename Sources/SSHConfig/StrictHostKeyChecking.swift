/// How an unknown or changed host key is treated (`StrictHostKeyChecking`).
///
/// As in OpenSSH, ``ask`` (the default) asks on a terminal about a host not yet known and
/// refuses without one; the library, which has no terminal, treats it as ``yes`` unless the app
/// asks through `HostKeyPolicy.ask`.
public enum StrictHostKeyChecking: String, Sendable, Hashable, Codable, CaseIterable {
    /// Refuse hosts whose key is not already in a known-hosts file.
    case yes
    /// Ask about a host not yet known (on a terminal; without one, refuse as ``yes`` does).
    case ask
    /// Add keys of new hosts to the known-hosts file; refuse changed keys.
    case acceptNew = "accept-new"
    /// Accept any host key (and add new ones). Unsafe outside throwaway hosts.
    case no

    /// Parses an OpenSSH value case-insensitively: `yes`/`true` → ``yes``, `ask` → ``ask``,
    /// `accept-new` → ``acceptNew``, `no`/`false`/`off` → ``no``.
    public init?(configValue: String) {
        switch configValue.lowercased() {
        case "yes", "true": self = .yes
        case "ask": self = .ask
        case "accept-new": self = .acceptNew
        case "no", "false", "off": self = .no
        default: return nil
        }
    }

    /// What an error message says is accepted.
    static let expectation = "yes, ask, accept-new, no or off"
}
