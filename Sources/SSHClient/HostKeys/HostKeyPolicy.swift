/// What to do with a host key that the known hosts file does not vouch for.
///
/// A key that differs from the recorded one is refused under every policy, except when an
/// ``ask(_:)`` callback is told so (``HostKeyChallenge/Status/changed``) and answers with the
/// one decision that accepts it, ``HostKeyDecision/acceptChangedKeyOnce``.
public enum HostKeyPolicy: Sendable, Equatable {
    /// Refuse unknown hosts (OpenSSH `StrictHostKeyChecking yes`). The default.
    case strict
    /// Trust an unknown host on first use and append its key to the file (OpenSSH `accept-new`).
    case acceptNew
    /// Check nothing. Only for throwaway test servers: anyone in the middle can read everything.
    case insecureAcceptAnything
    /// Ask the embedding app about every key the known hosts file does not vouch for; see ``ask(_:)``.
    case askCaller(HostKeyApprover)

    /// Asks `decide` about an unknown or changed host key, with the host, port, key type and the
    /// SHA256 fingerprint as OpenSSH shows it; the connection waits for the answer at most
    /// ``SSHConnectionConfiguration/promptTimeout``, which does not count against the connect timeout.
    ///
    /// ```swift
    /// configuration.hostKeyPolicy = .ask { challenge in
    ///     await ui.confirm("Trust \(challenge.host)? \(challenge.fingerprint)") ? .trustAndRecord : .refuse
    /// }
    /// ```
    public static func ask(_ decide: @escaping @Sendable (HostKeyChallenge) async -> HostKeyDecision) -> HostKeyPolicy {
        .askCaller(HostKeyApprover(decide))
    }
}

/// The callback of ``HostKeyPolicy/ask(_:)``. Two policies are equal when they hold the same approver.
public final class HostKeyApprover: Sendable, Equatable {
    let decide: @Sendable (HostKeyChallenge) async -> HostKeyDecision

    /// Wraps `decide`.
    public init(_ decide: @escaping @Sendable (HostKeyChallenge) async -> HostKeyDecision) {
        self.decide = decide
    }

    /// Identity: closures cannot be compared.
    public static func == (lhs: HostKeyApprover, rhs: HostKeyApprover) -> Bool { lhs === rhs }
}

/// A host key the known hosts file does not vouch for, as shown to a ``HostKeyPolicy/ask(_:)`` callback.
public struct HostKeyChallenge: Sendable, Equatable {
    /// Why the key needs a decision.
    public enum Status: Sendable, Equatable {
        /// The host has no entry in the known hosts file.
        case unknown
        /// The file records a different key for the host (or keys of other types only): possibly
        /// an attack. Only ``HostKeyDecision/acceptChangedKeyOnce`` lets such a connection through.
        case changed
    }

    /// The host as configured.
    public var host: String
    /// The TCP port.
    public var port: Int
    /// The key algorithm, e.g. "ssh-ed25519".
    public var keyType: String
    /// "SHA256:" and the unpadded base64 digest, exactly as `ssh` and `ssh-keygen -l` show it.
    public var fingerprint: String
    /// Whether the host is new or its key changed.
    public var status: Status
    /// The known hosts file that was checked (and that ``HostKeyDecision/trustAndRecord`` appends to).
    public var knownHostsFile: String

    /// The host as `ssh` and known_hosts name it: plain on port 22, `[host]:port` otherwise.
    public var knownHostsName: String { HostKeyName.knownHostsName(host: host, port: port) }

    /// A challenge with every field given (for an app's own tests of its callback).
    public init(host: String, port: Int, keyType: String, fingerprint: String, status: Status, knownHostsFile: String) {
        self.host = host
        self.port = port
        self.keyType = keyType
        self.fingerprint = fingerprint
        self.status = status
        self.knownHostsFile = knownHostsFile
    }
}

/// The answer of a ``HostKeyPolicy/ask(_:)`` callback.
public enum HostKeyDecision: Sendable, Equatable {
    /// Connect this time; leave the known hosts file untouched. For a
    /// ``HostKeyChallenge/Status/changed`` key this refuses with
    /// ``SSHError/hostKeyChanged(host:port:keyType:fingerprint:knownHostsFile:)``.
    case trustOnce
    /// Connect and append the key to the known hosts file, as `accept-new` does. For a
    /// ``HostKeyChallenge/Status/changed`` key this refuses with
    /// ``SSHError/hostKeyChanged(host:port:keyType:fingerprint:knownHostsFile:)``:
    /// the file is never rewritten.
    case trustAndRecord
    /// Do not connect: ``SSHError/hostKeyRejected(host:port:keyType:fingerprint:)``.
    case refuse
    /// The one answer that connects despite a CHANGED key, once, without touching the file.
    /// For an unknown key it means ``trustOnce``.
    case acceptChangedKeyOnce
}
