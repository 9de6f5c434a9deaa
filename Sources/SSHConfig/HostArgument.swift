/// A host named on the command line or in `RWS_HOST`: `[USER@]HOST[:PORT]`.
/// An IPv6 address takes a port only inside brackets (`[::1]:2222`); a bare
/// IPv6 address (`::1`) is a host without a port.
public struct HostArgument: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The user before the last `@`, if any.
    public let user: String?
    /// The host: a config alias, a name or an address (without brackets).
    public let host: String
    /// The port after the host, if any.
    public let port: Int?

    /// Creates a host argument from its parts.
    public init(user: String? = nil, host: String, port: Int? = nil) {
        self.user = user
        self.host = host
        self.port = port
    }

    /// Parses `[USER@]HOST[:PORT]`; throws ``SSHConfigError/badHostArgument(argument:reason:)``.
    public init(parsing text: String) throws {
        func fail(_ reason: String) -> SSHConfigError { .badHostArgument(argument: text, reason: reason) }
        var rest = Substring(text)
        if let at = rest.lastIndex(of: "@") {
            guard at != rest.startIndex else { throw fail("the user before '@' is empty") }
            user = String(rest[..<at])
            rest = rest[rest.index(after: at)...]
        } else {
            user = nil
        }
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw fail("'[' without a closing ']'") }
            let after = rest[rest.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { throw fail("unexpected text after ']'") }
            portText = after.isEmpty ? nil : after.dropFirst()
            rest = rest[rest.index(after: rest.startIndex)..<close]
        } else if rest.filter({ $0 == ":" }).count == 1, let colon = rest.firstIndex(of: ":") {
            portText = rest[rest.index(after: colon)...]
            rest = rest[..<colon]
        }
        guard !rest.isEmpty else { throw fail("the host is empty") }
        host = String(rest)
        if let portText {
            guard let value = ValueParsing.port(String(portText)) else {
                throw fail("port '\(portText)' is not \(ValueParsing.portExpectation)")
            }
            port = value
        } else {
            port = nil
        }
    }

    /// The argument in `[USER@]HOST[:PORT]` form, bracketing IPv6 addresses.
    public var description: String {
        let userPart = user.map { $0 + "@" } ?? ""
        let hostPart = host.contains(":") && port != nil ? "[\(host)]" : host
        return userPart + hostPart + (port.map { ":\($0)" } ?? "")
    }
}
