/// Something rws noticed in a configuration file that does not stop it from
/// being used but may make the result differ from what `ssh` would do.
public struct SSHConfigWarning: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The line the warning is about.
    public let location: SourceLocation
    /// What was noticed and what it means.
    public let message: String

    /// `file:line: message`.
    public var description: String { "\(location): \(message)" }
}

/// What a `Match` line is evaluated against.
struct MatchInput {
    /// The host as given by the user (`originalhost`).
    let originalHost: String
    /// `HostName` so far with `%h` expanded, else the host as given (`host`).
    let currentHost: String
    /// `User` so far, else the user named on the command line, else the local user.
    let remoteUser: String
    /// The local user name (`localuser`).
    let localUser: String
}

/// The condition of a `Match` line. rws evaluates `all`, `host`, `originalhost`,
/// `user` and `localuser` (each may be negated with `!`). Any other criterion
/// (`exec`, `localnetwork`, `canonical`, `final`, `tagged`, unknown ones) cannot be
/// evaluated here; such a block never applies and a warning says so, so that a
/// block is never applied as if it had matched.
struct MatchCondition: Sendable, Equatable {
    enum Attribute: String, Sendable { case host, originalhost, user, localuser }

    struct Criterion: Sendable, Equatable {
        let attribute: Attribute
        let patterns: String
        let negated: Bool
    }

    /// The criteria that must all hold; empty for `Match all`.
    let criteria: [Criterion]
    /// Criteria rws cannot evaluate, as written; non-empty means "never applies".
    let unsupported: [String]

    private static let withoutArgument: Set<String> = ["canonical", "final"]
    private static let unsupportedWithArgument: Set<String> = ["exec", "localnetwork", "tagged"]

    /// Parses the arguments of a `Match` line.
    static func parse(_ arguments: [String], at location: SourceLocation) throws -> MatchCondition {
        guard !arguments.isEmpty else {
            throw SSHConfigError.badMatch(reason: "no criteria; write Match all or Match host PATTERN", location: location)
        }
        var criteria: [Criterion] = [], unsupported: [String] = [], sawAll = false
        var index = 0
        while index < arguments.count {
            let written = arguments[index]
            let negated = written.hasPrefix("!")
            let name = String(negated ? written.dropFirst() : written[...]).lowercased()
            index += 1
            if name == "all" {
                sawAll = true
            } else if withoutArgument.contains(name) {
                unsupported.append(written)
            } else if let attribute = Attribute(rawValue: name) {
                let patterns = try argument(for: written, in: arguments, at: index, location)
                criteria.append(Criterion(attribute: attribute, patterns: patterns, negated: negated))
                index += 1
            } else if unsupportedWithArgument.contains(name) {
                let value = try argument(for: written, in: arguments, at: index, location)
                unsupported.append("\(written) \(value)")
                index += 1
            } else {
                // Unknown attribute: its arity is unknown too, so the rest of the line is unreadable.
                unsupported.append(arguments[(index - 1)...].joined(separator: " "))
                break
            }
        }
        if sawAll, !criteria.isEmpty {
            throw SSHConfigError.badMatch(reason: "'all' cannot be combined with other criteria", location: location)
        }
        return MatchCondition(criteria: criteria, unsupported: unsupported)
    }

    private static func argument(
        for attribute: String, in arguments: [String], at index: Int, _ location: SourceLocation
    ) throws -> String {
        guard index < arguments.count else {
            throw SSHConfigError.badMatch(reason: "'\(attribute)' needs a pattern", location: location)
        }
        return arguments[index]
    }

    /// The warning to report for a condition rws cannot evaluate, if any.
    func warning(at location: SourceLocation) -> SSHConfigWarning? {
        guard !unsupported.isEmpty else { return nil }
        let list = unsupported.joined(separator: ", ")
        return SSHConfigWarning(
            location: location,
            message: "Match criteria not supported by rws (\(list)); this block is never applied")
    }

    /// Whether the block applies: every criterion holds (after negation) and
    /// none is unsupported.
    func holds(for input: MatchInput) -> Bool {
        guard unsupported.isEmpty else { return false }
        return criteria.allSatisfy { criterion in
            let matched: Bool
            switch criterion.attribute {
            case .host:
                matched = HostPattern.listMatches(criterion.patterns, name: input.currentHost, lowercasingName: true)
            case .originalhost:
                matched = HostPattern.listMatches(criterion.patterns, name: input.originalHost, lowercasingName: true)
            case .user:
                matched = HostPattern.listMatches(criterion.patterns, name: input.remoteUser, lowercasingName: false)
            case .localuser:
                matched = HostPattern.listMatches(criterion.patterns, name: input.localUser, lowercasingName: false)
            }
            return matched != criterion.negated
        }
    }
}
