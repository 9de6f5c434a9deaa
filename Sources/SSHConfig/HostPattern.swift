/// A host pattern as written after `Host` or in a `Match host` list: `*` matches any
/// run of characters, `?` exactly one, and a leading `!` negates the pattern.
public struct HostPattern: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The pattern without its `!`.
    public let pattern: String
    /// Whether the pattern was written with a leading `!`.
    public let isNegated: Bool

    /// Parses one pattern, e.g. `*.example.com` or `!bastion`.
    public init(_ text: String) {
        isNegated = text.hasPrefix("!")
        pattern = isNegated ? String(text.dropFirst()) : text
    }

    /// The pattern as written.
    public var description: String { isNegated ? "!" + pattern : pattern }

    /// Whether the wildcard pattern matches `name` (ignoring ``isNegated``).
    /// Matching is by bytes and case-sensitive, as in OpenSSH's `match_pattern`.
    public func wildcardMatches(_ name: String) -> Bool {
        Self.match(Array(name.utf8)[...], Array(pattern.utf8)[...])
    }

    /// The result of a `Host` line for `name`: true when some positive pattern
    /// matches and no negated pattern does. A negated pattern alone never matches.
    public static func hostLineMatches(_ patterns: [HostPattern], name: String) -> Bool {
        var matched = false
        for pattern in patterns where pattern.wildcardMatches(name) {
            if pattern.isNegated { return false }
            matched = true
        }
        return matched
    }

    /// The result of a comma-separated pattern list such as `Match host a,!b*`
    /// (OpenSSH's `match_pattern_list`). With `lowercasingName`, `name` is
    /// lower-cased first; patterns are used as written, as OpenSSH does.
    public static func listMatches(_ list: String, name: String, lowercasingName: Bool) -> Bool {
        let patterns = list.split(separator: ",", omittingEmptySubsequences: false)
            .map { HostPattern(String($0)) }
        return hostLineMatches(patterns, name: lowercasingName ? name.lowercased() : name)
    }

    /// Iterative wildcard match with single-star backtracking: linear enough
    /// for host names and free of recursion depth limits.
    private static func match(_ name: ArraySlice<UInt8>, _ pattern: ArraySlice<UInt8>) -> Bool {
        let star = UInt8(ascii: "*"), question = UInt8(ascii: "?")
        var n = name.startIndex, p = pattern.startIndex
        var starAt: Int?, resumeAt = n
        while n < name.endIndex {
            if p < pattern.endIndex, pattern[p] == star {
                starAt = p
                resumeAt = n
                p += 1
            } else if p < pattern.endIndex, pattern[p] == question || pattern[p] == name[n] {
                n += 1
                p += 1
            } else if let star = starAt {
                p = star + 1
                resumeAt += 1
                n = resumeAt
            } else {
                return false
            }
        }
        while p < pattern.endIndex, pattern[p] == star { p += 1 }
        return p == pattern.endIndex
    }
}
