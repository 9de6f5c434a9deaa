/// How an unknown or changed host key is treated (`StrictHostKeyChecking`).
///
/// OpenSSH's `ask` needs a terminal to ask on; rws never prompts, so `ask` is read
/// as ``yes``: unknown hosts are refused, which is what `ask` amounts to without
/// a terminal.
public enum StrictHostKeyChecking: String, Sendable, Hashable, Codable, CaseIterable {
    /// Refuse hosts whose key is not already in a known-hosts file.
    case yes
    /// Add keys of new hosts to the known-hosts file; refuse changed keys.
    case acceptNew = "accept-new"
    /// Accept any host key (and add new ones). Unsafe outside throwaway hosts.
    case no

    /// Parses an OpenSSH value case-insensitively: `yes`/`true`/`ask` → ``yes``,
    /// `accept-new` → ``acceptNew``, `no`/`false`/`off` → ``no``.
    public init?(configValue: String) {
        switch configValue.lowercased() {
        case "yes", "true", "ask": self = .yes
        case "accept-new": self = .acceptNew
        case "no", "false", "off": self = .no
        default: return nil
        }
    }

    /// What an error message says is accepted.
    static let expectation = "yes, ask, accept-new, no or off"
}
