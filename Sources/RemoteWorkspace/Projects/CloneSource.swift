/// A repository address accepted for cloning, checked before anything reaches the box.
///
/// Accepted: `https://host/path`, `ssh://[user@]host[:port]/path`, scp-like `[user@]host:path`;
/// and, only when local sources are allowed, `file:///path` and absolute paths (`/srv/x.git`,
/// `~/x.git`). Refused: anything starting with `-` (an option to git or ssh), git's
/// `transport::address` syntax (`ext::sh -c ...`), hosts or users starting with `-`
/// (`ssh://-oProxyCommand=...`), whitespace and control characters.
public struct CloneSource: Sendable, Equatable {
    /// Which form the address has.
    public enum Kind: String, Sendable, Equatable {
        /// `https://`.
        case https
        /// `ssh://`.
        case ssh
        /// `[user@]host:path`.
        case scpLike
        /// `file://` or a path on the box.
        case local
    }

    /// The address as given.
    public let url: String
    /// Its form.
    public let kind: Kind

    /// What an address may look like, for error messages.
    public static let allowedDescription =
        "use https://host/path, ssh://[user@]host[:port]/path or user@host:path "
        + "(file:// and paths on the box only when local sources are allowed)"

    /// Checks `url`.
    ///
    /// - Parameters:
    ///   - url: The repository address as the user gave it.
    ///   - allowLocal: accept `file://` and paths on the box.
    /// - Throws: ``ProjectError/invalidURL(_:reason:)`` naming the broken rule and what is allowed.
    public init(_ url: String, allowLocal: Bool = false) throws(ProjectError) {
        self.url = url
        kind = try Self.classify(url, allowLocal: allowLocal)
    }

    /// The project name the address suggests: its last path component without `.git`, or nil.
    public var derivedName: String? {
        var path = Substring(pathPart)
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }), kind == .https { path = path[..<cut] }
        while path.hasSuffix("/") { path = path.dropLast() }
        if path.hasSuffix("/.git") { path = path.dropLast(5) }
        let last = path.split(whereSeparator: { $0 == "/" || $0 == ":" }).last.map(String.init) ?? ""
        let name = last.hasSuffix(".git") ? String(last.dropLast(4)) : last
        return name.isEmpty ? nil : name
    }

    /// The path part of the address (after the host for URLs, after `:` for scp-like).
    private var pathPart: String {
        switch kind {
        case .https, .ssh:
            let rest = url[url.range(of: "://")!.upperBound...]
            return rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? ""
        case .scpLike:
            return String(url[url.index(after: url.firstIndex(of: ":")!)...])
        case .local:
            return url.hasPrefix("file://") ? String(url.dropFirst(7)) : url
        }
    }

    private static func classify(_ url: String, allowLocal: Bool) throws(ProjectError) -> Kind {
        func refuse(_ reason: String) -> ProjectError { .invalidURL(url, reason: "\(reason); \(allowedDescription)") }
        guard !url.isEmpty else { throw refuse("the address is empty") }
        guard url.utf8.count <= 4096 else { throw refuse("the address is longer than 4096 bytes") }
        guard !url.hasPrefix("-") else { throw refuse("it starts with '-', which git would read as an option") }
        if let transport = url.range(of: "::"), isSchemeWord(url[..<transport.lowerBound]) {
            throw refuse("git's transport::address form ('\(url[..<transport.lowerBound])::') is not allowed")
        }
        if url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            throw refuse("it contains whitespace or a control character (percent-encode spaces)")
        }
        if let separator = url.range(of: "://") {
            return try classifyURL(
                scheme: url[..<separator.lowerBound].lowercased(), rest: url[separator.upperBound...],
                allowLocal: allowLocal, refuse: refuse)
        }
        if url.hasPrefix("/") || url.hasPrefix("~/") {
            guard allowLocal else { throw refuse("paths on the box are not allowed here") }
            return .local
        }
        if let colon = url.firstIndex(of: ":"), !url[..<colon].contains("/") {
            try checkAuthority(url[..<colon], allowPort: false, refuse: refuse)
            let path = url[url.index(after: colon)...]
            guard !path.isEmpty, !path.hasPrefix("-") else { throw refuse("the path after ':' is empty or starts with '-'") }
            return .scpLike
        }
        throw refuse(allowLocal ? "it is a relative path; give an absolute one" : "it is not a URL")
    }

    private static func classifyURL(
        scheme: String, rest: Substring, allowLocal: Bool,
        refuse: (String) -> ProjectError
    ) throws(ProjectError) -> Kind {
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count)
        switch scheme {
        case "https", "ssh":
            try checkAuthority(authority, allowPort: true, refuse: refuse)
            guard path.count > 1 else { throw refuse("it names no repository path") }
            return scheme == "https" ? .https : .ssh
        case "file":
            guard allowLocal else { throw refuse("file:// addresses are not allowed here") }
            guard authority.isEmpty || authority == "localhost", path.count > 1 else {
                throw refuse("a file:// address must be file:///absolute/path")
            }
            return .local
        default:
            throw refuse("the scheme '\(scheme)' is not allowed")
        }
    }

    /// `[user@]host[:port]`: neither part may start with `-`; host is letters, digits, `.`, `-`, `_` or `[ipv6]`.
    private static func checkAuthority(
        _ authority: Substring, allowPort: Bool,
        refuse: (String) -> ProjectError
    ) throws(ProjectError) {
        var host = authority
        if let at = authority.lastIndex(of: "@") {
            let user = authority[..<at]
            guard !user.isEmpty, !user.hasPrefix("-") else { throw refuse("the user name is empty or starts with '-'") }
            host = authority[authority.index(after: at)...]
        }
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]"),
                host[host.index(after: host.startIndex)..<close].allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." })
            else { throw refuse("the bracketed host is not an IPv6 address") }
            let port = host[host.index(after: close)...]
            guard port.isEmpty || allowPort && port.count > 1 && port.hasPrefix(":") && port.dropFirst().allSatisfy(\.isNumber)
            else { throw refuse("only a port may follow the IPv6 address") }
            return
        }
        if allowPort, let colon = host.lastIndex(of: ":") {
            guard host[host.index(after: colon)...].allSatisfy(\.isNumber) else { throw refuse("the port is not a number") }
            host = host[..<colon]
        }
        guard let first = host.first, first != "-", first != "." else { throw refuse("the host is empty or starts with '-' or '.'") }
        guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") }) else {
            throw refuse("the host may hold only letters, digits, '.', '-' and '_'")
        }
    }

    private static func isSchemeWord(_ word: Substring) -> Bool {
        guard let first = word.first, first.isASCII, first.isLetter else { return false }
        return word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }
}
