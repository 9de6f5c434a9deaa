/// The rules for project names: one directory directly inside the workspace root.
public enum ProjectName {
    /// Longest name accepted for a new project.
    public static let maximumLength = 100

    /// What a new project's name may be, for error messages.
    public static let allowedDescription =
        "use 1 to \(maximumLength) letters, digits, '.', '_' or '-', starting with a letter or digit"

    /// Checks a name for a new project (create or clone): ASCII letters, digits, `.`, `_`, `-`,
    /// starting with a letter or digit, at most ``maximumLength`` characters. So no `/`, no `..`,
    /// no leading dash or dot, no spaces, quotes, `$`, backticks or control characters.
    ///
    /// - Throws: ``ProjectError/invalidName(_:reason:)`` saying what is allowed.
    public static func validateNew(_ name: String) throws(ProjectError) {
        guard !name.isEmpty else { throw .invalidName(name, reason: "the name is empty; \(allowedDescription)") }
        guard name.utf8.count <= maximumLength else {
            throw .invalidName(name, reason: "the name is longer than \(maximumLength) characters; \(allowedDescription)")
        }
        guard let first = name.utf8.first, isLetterOrDigit(first) else {
            throw .invalidName(name, reason: "the name must start with a letter or digit; \(allowedDescription)")
        }
        if let bad = name.unicodeScalars.first(where: { !isAllowed($0) }) {
            throw .invalidName(name, reason: "\(describe(bad)) is not allowed; \(allowedDescription)")
        }
        guard !name.contains("..") else { throw .invalidName(name, reason: "'..' is not allowed; \(allowedDescription)") }
    }

    /// Checks the name of an existing project (delete): any single, non-hidden entry of the root,
    /// so a directory made by hand with a space can still be removed. No `/`, no leading `.`, no
    /// control characters.
    ///
    /// - Throws: ``ProjectError/invalidName(_:reason:)``.
    public static func validateExisting(_ name: String) throws(ProjectError) {
        let rule = "give the name of one entry directly inside the workspace root"
        guard !name.isEmpty else { throw .invalidName(name, reason: "the name is empty; \(rule)") }
        guard !name.hasPrefix(".") else {
            throw .invalidName(name, reason: "names starting with '.' (including '.' and '..') are not projects; \(rule)")
        }
        if let bad = name.unicodeScalars.first(where: { $0 == "/" || $0.value < 0x20 || $0.value == 0x7F }) {
            throw .invalidName(name, reason: "\(describe(bad)) is not allowed; \(rule)")
        }
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return false
        }
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return false }
        let byte = UInt8(scalar.value)
        return isLetterOrDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    private static func describe(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "/": return "'/' (a path separator)"
        case "\n": return "a newline"
        case " ": return "a space"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F { return "a control character" }
            return "'\(scalar)'"
        }
    }
}
