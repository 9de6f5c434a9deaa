/// A place in a configuration file: the file's path and a 1-based line number.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The path of the file as it was opened.
    public let file: String
    /// The 1-based line number inside ``file``.
    public let line: Int

    /// Creates a location for `line` of `file`.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// `file:line`, the form compilers and editors understand.
    public var description: String { "\(file):\(line)" }
}

/// Everything that can go wrong while reading an OpenSSH client configuration or
/// resolving the settings for a host. Each case carries enough context to say
/// where the problem is and what to do about it; ``description`` says both.
public enum SSHConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A keyword's value could not be understood, e.g. `Port 0x10`.
    case badValue(keyword: String, value: String, expected: String, location: SourceLocation)
    /// A keyword was given without a value.
    case missingArgument(keyword: String, location: SourceLocation)
    /// A single-valued keyword was followed by more than one value.
    case extraArguments(keyword: String, extra: String, location: SourceLocation)
    /// A quote was opened and never closed.
    case unbalancedQuotes(location: SourceLocation)
    /// A `Match` line could not be parsed (not: could not be evaluated; that is a warning).
    case badMatch(reason: String, location: SourceLocation)
    /// A configuration file exists but could not be read. `includedFrom` is the
    /// `Include` line that named it, or `nil` for the top-level file.
    case unreadableFile(path: String, reason: String, includedFrom: SourceLocation?)
    /// A file includes itself, directly or through other files. `chain` lists the
    /// files from the outermost down to the one included again.
    case includeLoop(chain: [String], location: SourceLocation)
    /// Includes are nested deeper than OpenSSH allows.
    case includeDepthExceeded(limit: Int, location: SourceLocation)
    /// A `%` token that the keyword does not support, e.g. `%p` in `HostName`.
    case unknownToken(token: String, keyword: String, value: String)
    /// A `[USER@]HOST[:PORT]` host argument could not be parsed.
    case badHostArgument(argument: String, reason: String)
    /// An `RWS_*` environment variable holds a value that cannot be used.
    case badEnvironmentValue(variable: String, value: String, expected: String)
    /// A command-line flag holds a value that cannot be used.
    case badFlagValue(flag: String, value: String, expected: String)
    /// No host was named: neither a flag nor `RWS_HOST`.
    case missingHost

    /// A one-paragraph message: what is wrong, where, and what to do.
    public var description: String {
        switch self {
        case let .badValue(keyword, value, expected, location):
            return "\(location): bad \(keyword) value '\(value)'; expected \(expected). Fix the value in that line."
        case let .missingArgument(keyword, location):
            return "\(location): \(keyword) needs a value. Add one or remove the line."
        case let .extraArguments(keyword, extra, location):
            return "\(location): \(keyword) takes one value, but '\(extra)' follows it. Quote a value that contains spaces."
        case let .unbalancedQuotes(location):
            return "\(location): a quote is opened and never closed. Close it on the same line."
        case let .badMatch(reason, location):
            return "\(location): bad Match line: \(reason). See ssh_config(5) for the Match syntax."
        case let .unreadableFile(path, reason, includedFrom):
            let origin = includedFrom.map { " (included from \($0))" } ?? ""
            return "cannot read configuration file \(path)\(origin): \(reason). Check that it exists and that you may read it."
        case let .includeLoop(chain, location):
            return "\(location): Include loop: \(chain.joined(separator: " -> ")). Remove one of these Include lines."
        case let .includeDepthExceeded(limit, location):
            return "\(location): Include nested deeper than \(limit) files. Flatten the includes."
        case let .unknownToken(token, keyword, value):
            return "\(keyword) '\(value)': the token \(token) is not supported there. Write %% for a literal percent sign."
        case let .badHostArgument(argument, reason):
            return "bad host '\(argument)': \(reason). Use [USER@]HOST[:PORT], with an IPv6 address in brackets: [::1]:2222."
        case let .badEnvironmentValue(variable, value, expected):
            return "environment variable \(variable)='\(value)': expected \(expected). Fix or unset it."
        case let .badFlagValue(flag, value, expected):
            return "\(flag) '\(value)': expected \(expected)."
        case .missingHost:
            return "no host given. Pass --host [USER@]HOST[:PORT] or set RWS_HOST."
        }
    }
}
