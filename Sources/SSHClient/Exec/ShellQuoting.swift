import Foundation

/// The one way rws builds a remote command line out of untrusted words.
///
/// Every path, name, URL or branch that reaches a remote shell goes through
/// ``quote(_:)``: POSIX single-quote escaping, which no shell expands inside
/// (no `$`, backtick, backslash or glob processing). A word that holds a NUL
/// cannot be passed to a remote program at all, so it is refused instead of cut.
public enum ShellQuoting {
    /// Returns `argument` as one shell word that every POSIX shell reads back byte for byte.
    ///
    /// - Throws: ``ShellQuotingError/containsNUL(_:)`` when the word holds a NUL character.
    public static func quote(_ argument: String) throws(ShellQuotingError) -> String {
        if argument.utf8.contains(0) { throw .containsNUL(argument) }
        if !argument.isEmpty, argument.utf8.allSatisfy(isSafe) { return argument }
        return "'" + argument.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// Joins `words` into one command line, each word quoted with ``quote(_:)``.
    public static func commandLine(_ words: [String]) throws(ShellQuotingError) -> String {
        var quoted: [String] = []
        quoted.reserveCapacity(words.count)
        for word in words { quoted.append(try quote(word)) }
        return quoted.joined(separator: " ")
    }

    /// Quotes a remote path, keeping a leading `~` or `~/` meaning the remote home: `~/a b` becomes
    /// `"$HOME"/'a b'`. Any other `~` is literal.
    public static func quotePath(_ path: String) throws(ShellQuotingError) -> String {
        if path == "~" { return "\"$HOME\"" }
        if path.hasPrefix("~/") {
            let rest = String(path.dropFirst(2))
            return rest.isEmpty ? "\"$HOME\"/" : "\"$HOME\"/" + (try quote(rest))
        }
        return try quote(path)
    }

    /// Bytes that mean nothing to a POSIX shell, so a word made of them needs no quotes.
    private static func isSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"),
            UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "%"), UInt8(ascii: "+"),
            UInt8(ascii: ","):
            return true
        default:
            return false
        }
    }
}

/// Why a word could not be made into a shell word.
public enum ShellQuotingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The word holds a NUL character, which no remote program can receive in its arguments.
    case containsNUL(String)

    public var description: String {
        switch self {
        case .containsNUL(let word):
            let shown = word.replacingOccurrences(of: "\0", with: "\\0")
            return "the argument \"\(shown)\" contains a NUL character, which cannot be passed to a remote command"
        }
    }
}
