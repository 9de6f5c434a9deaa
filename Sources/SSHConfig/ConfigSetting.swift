/// One setting line of a configuration file whose keyword rws understands,
/// with its value already checked (values are checked even in blocks that do
/// not apply to the host at hand, as OpenSSH does).
enum ConfigSetting: Sendable, Equatable {
    case hostName(String)
    case user(String)
    case port(Int)
    case identityFile(String)
    case identitiesOnly(Bool)
    case userKnownHostsFiles([String])
    case strictHostKeyChecking(StrictHostKeyChecking)
    case connectTimeout(Int)
    case serverAliveInterval(Int)
    case serverAliveCountMax(Int)
    case proxyJump([HostArgument])

    /// Reads the setting on `line`, or `nil` when rws does not use the keyword
    /// (unknown keywords are ignored rather than rejected).
    static func parse(_ line: TokenizedLine, at location: SourceLocation) throws -> ConfigSetting? {
        // The one list-valued keyword: all files of the line form one value.
        if line.keyword == "userknownhostsfile" {
            guard !line.arguments.isEmpty else {
                throw SSHConfigError.missingArgument(keyword: line.spelling, location: location)
            }
            return .userKnownHostsFiles(line.arguments)
        }
        guard let make = makers[line.keyword] else { return nil }
        let value = try singleArgument(of: line, at: location)
        guard let setting = make(value) else {
            throw SSHConfigError.badValue(
                keyword: line.spelling, value: value,
                expected: expectations[line.keyword] ?? "a valid value", location: location)
        }
        return setting
    }

    /// The only argument of `line`; a missing or second argument is an error.
    static func singleArgument(of line: TokenizedLine, at location: SourceLocation) throws -> String {
        guard let value = line.arguments.first else {
            throw SSHConfigError.missingArgument(keyword: line.spelling, location: location)
        }
        if line.arguments.count > 1 {
            throw SSHConfigError.extraArguments(
                keyword: line.spelling, extra: line.arguments[1], location: location)
        }
        return value
    }

    private static let makers: [String: @Sendable (String) -> ConfigSetting?] = [
        "hostname": { .hostName($0) },
        "user": { .user($0) },
        "port": { ValueParsing.port($0).map(ConfigSetting.port) },
        "identityfile": { .identityFile($0) },
        "identitiesonly": { ValueParsing.flag($0).map(ConfigSetting.identitiesOnly) },
        "stricthostkeychecking": {
            StrictHostKeyChecking(configValue: $0).map(ConfigSetting.strictHostKeyChecking)
        },
        "connecttimeout": { ValueParsing.seconds($0).map(ConfigSetting.connectTimeout) },
        "serveraliveinterval": { ValueParsing.seconds($0).map(ConfigSetting.serverAliveInterval) },
        "serveralivecountmax": { ValueParsing.count($0).map(ConfigSetting.serverAliveCountMax) },
        "proxyjump": { JumpHosts.parse($0).map(ConfigSetting.proxyJump) },
    ]

    private static let expectations: [String: String] = [
        "port": ValueParsing.portExpectation,
        "identitiesonly": ValueParsing.flagExpectation,
        "stricthostkeychecking": StrictHostKeyChecking.expectation,
        "connecttimeout": ValueParsing.timeExpectation,
        "serveraliveinterval": ValueParsing.timeExpectation,
        "serveralivecountmax": ValueParsing.countExpectation,
        "proxyjump": JumpHosts.expectation,
    ]
}
