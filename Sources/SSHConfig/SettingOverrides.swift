/// Settings given outside the configuration file: on the command line, or in
/// `RWS_*` environment variables. `nil` and empty lists mean "not given".
///
/// Environment variables read by ``init(environment:)`` (an empty value counts
/// as unset):
///
/// | variable | setting |
/// | --- | --- |
/// | `RWS_HOST` | `[USER@]HOST[:PORT]` |
/// | `RWS_SSH_CONFIG` | configuration file, like `ssh -F` |
/// | `RWS_USER` | remote user |
/// | `RWS_PORT` | port |
/// | `RWS_IDENTITY` | identity files, `:`-separated |
/// | `RWS_IDENTITIES_ONLY` | `yes` / `no` |
/// | `RWS_KNOWN_HOSTS` | known-hosts files, `:`-separated |
/// | `RWS_STRICT_HOST_KEY_CHECKING` | `yes` / `ask` / `accept-new` / `no` / `off` |
/// | `RWS_CONNECT_TIMEOUT` | seconds, or a time like `1m30s` |
/// | `RWS_SERVER_ALIVE_INTERVAL` | seconds, or a time like `1m` |
/// | `RWS_SERVER_ALIVE_COUNT_MAX` | count |
/// | `RWS_PROXY_JUMP` | jump hosts, as `ProxyJump` (`none` for none) |
public struct SettingOverrides: Sendable, Hashable, Codable {
    /// The host, with an optional user and port.
    public var host: HostArgument?
    /// A configuration file to read instead of `~/.ssh/config`.
    public var configFile: String?
    /// The remote user; wins over a user inside ``host``.
    public var user: String?
    /// The port; wins over a port inside ``host``.
    public var port: Int?
    /// Identity files (`~` and `%` tokens are expanded as in the config file).
    public var identityFiles: [String] = []
    /// Whether only the listed identities may be offered.
    public var identitiesOnly: Bool?
    /// Known-hosts files.
    public var userKnownHostsFiles: [String] = []
    /// Host key policy.
    public var strictHostKeyChecking: StrictHostKeyChecking?
    /// Connection timeout in seconds.
    public var connectTimeout: Int?
    /// Keep-alive interval in seconds (0 disables keep-alives).
    public var serverAliveInterval: Int?
    /// Unanswered keep-alives before the connection is dropped.
    public var serverAliveCountMax: Int?
    /// Jump hosts, first hop first (`[]`: none, overriding the configuration file).
    public var proxyJump: [HostArgument]?

    /// No overrides.
    public init() {}

    /// Reads the `RWS_*` variables listed above from `environment`.
    public init(environment: [String: String]) throws {
        func value(_ name: String) -> String? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            return text
        }
        func parsed<T>(_ name: String, _ parse: (String, String) throws -> T) throws -> T? {
            guard let text = value(name) else { return nil }
            do {
                return try parse(text, name)
            } catch let SSHConfigError.badFlagValue(_, _, expected) {
                throw SSHConfigError.badEnvironmentValue(variable: name, value: text, expected: expected)
            } catch let SSHConfigError.badHostArgument(_, reason) {
                throw SSHConfigError.badEnvironmentValue(variable: name, value: text, expected: "[USER@]HOST[:PORT] (\(reason))")
            }
        }
        host = try parsed("RWS_HOST") { text, _ in try HostArgument(parsing: text) }
        configFile = value("RWS_SSH_CONFIG")
        user = value("RWS_USER")
        port = try parsed("RWS_PORT", Self.parsePort)
        identityFiles = Self.pathList(value("RWS_IDENTITY"))
        identitiesOnly = try parsed("RWS_IDENTITIES_ONLY", Self.parseYesNo)
        userKnownHostsFiles = Self.pathList(value("RWS_KNOWN_HOSTS"))
        strictHostKeyChecking = try parsed("RWS_STRICT_HOST_KEY_CHECKING", Self.parseStrictHostKeyChecking)
        connectTimeout = try parsed("RWS_CONNECT_TIMEOUT", Self.parseSeconds)
        serverAliveInterval = try parsed("RWS_SERVER_ALIVE_INTERVAL", Self.parseSeconds)
        serverAliveCountMax = try parsed("RWS_SERVER_ALIVE_COUNT_MAX", Self.parseCount)
        proxyJump = try parsed("RWS_PROXY_JUMP", Self.parseJumpHosts)
    }

    private static func pathList(_ text: String?) -> [String] {
        text?.split(separator: ":").map(String.init) ?? []
    }

    /// Parses a port flag value (1...65535); the error names `flag`.
    public static func parsePort(_ text: String, flag: String) throws -> Int {
        try parse(text, flag: flag, ValueParsing.port, expected: ValueParsing.portExpectation)
    }

    /// Parses a time flag value (`90`, `1m30s`) into seconds; the error names `flag`.
    public static func parseSeconds(_ text: String, flag: String) throws -> Int {
        try parse(text, flag: flag, ValueParsing.seconds, expected: ValueParsing.timeExpectation)
    }

    /// Parses a non-negative count flag value; the error names `flag`.
    public static func parseCount(_ text: String, flag: String) throws -> Int {
        try parse(text, flag: flag, ValueParsing.count, expected: ValueParsing.countExpectation)
    }

    /// Parses a `yes`/`no` flag value; the error names `flag`.
    public static func parseYesNo(_ text: String, flag: String) throws -> Bool {
        try parse(text, flag: flag, ValueParsing.flag, expected: ValueParsing.flagExpectation)
    }

    /// Parses a host key policy flag value; the error names `flag`.
    public static func parseStrictHostKeyChecking(_ text: String, flag: String) throws -> StrictHostKeyChecking {
        try parse(text, flag: flag, StrictHostKeyChecking.init(configValue:), expected: StrictHostKeyChecking.expectation)
    }

    /// Parses a jump host list (`-J`), as `ProxyJump`; the error names `flag`.
    public static func parseJumpHosts(_ text: String, flag: String) throws -> [HostArgument] {
        try parse(text, flag: flag, JumpHosts.parse, expected: JumpHosts.expectation)
    }

    private static func parse<T>(
        _ text: String, flag: String, _ parser: (String) -> T?, expected: String
    ) throws -> T {
        guard let value = parser(text) else {
            throw SSHConfigError.badFlagValue(flag: flag, value: text, expected: expected)
        }
        return value
    }
}
