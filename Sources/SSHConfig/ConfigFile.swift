/// A parsed OpenSSH client configuration file, with every `Include` already
/// read. Values are checked while parsing; which lines apply to a host is decided
/// later by ``settings(for:commandLineUser:localUser:)``.
public struct SSHConfigFile: Sendable {
    /// The path the file was read from (as given, not canonicalized).
    public let path: String
    /// The file's lines that matter: Host, Match, Include and known settings.
    let lines: [ConfigLine]
    /// Warnings about this file and the files it includes.
    public let warnings: [SSHConfigWarning]

    /// A configuration with no lines, what a missing `~/.ssh/config` amounts to.
    public static func empty(path: String) -> SSHConfigFile {
        SSHConfigFile(path: path, lines: [], warnings: [])
    }

    /// Every file read for this configuration: this one, then the included ones
    /// in the order they are included.
    public var filesRead: [String] {
        [path]
            + lines.flatMap { line -> [String] in
                guard case let .include(files) = line.kind else { return [] }
                return files.flatMap(\.filesRead)
            }
    }
}

/// One meaningful line of a configuration file.
struct ConfigLine: Sendable {
    enum Kind: Sendable {
        /// `Host PATTERN...`: starts a block that applies when the host matches.
        case host([HostPattern])
        /// `Match ...`: starts a block that applies when the condition holds.
        case match(MatchCondition)
        /// `Include ...`: the files its patterns named, in glob order.
        case include([SSHConfigFile])
        /// A keyword rws uses, with its checked value.
        case setting(ConfigSetting)
    }

    let kind: Kind
    let location: SourceLocation
}
