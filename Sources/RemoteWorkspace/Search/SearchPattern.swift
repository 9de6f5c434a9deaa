/// What `rws search` looks for, as one POSIX extended regular expression run over the stored
/// session lines (`LC_ALL=C grep -i -E`, then `awk` over the lines lowercased).
///
/// Session files hold JSON, so the text a person typed may be stored escaped: `"` as `\"`, a
/// newline as `\n`, `/` as `\/`, and any non-ASCII letter either as its UTF-8 bytes (Claude Code)
/// or as `\uXXXX` (other writers). A text query therefore becomes, character by character, an
/// alternation of every way the character can be stored. Letters match in either case, non-ASCII
/// ones too: each character of the query stands for itself and its single-scalar lower and upper
/// case forms (``variants(of:)``), and the expression lists them all, because grep and awk fold
/// only ASCII under `LC_ALL=C`. The expression is lowercase throughout, so the same text works
/// for `grep -i` and for `awk` over `tolower($0)`.
struct SearchPattern: Sendable, Equatable {
    /// The expression, lowercase ASCII.
    let extendedRegex: String
    /// Whether it is the user's own expression (matched against the stored text as it is).
    let isRegex: Bool

    /// The pattern for a text as a person types it.
    ///
    /// - Throws: ``RemoteSessionError/invalidSearch(_:reason:)`` for an empty text.
    static func text(_ text: String) throws -> SearchPattern {
        guard !text.isEmpty else { throw RemoteSessionError.invalidSearch(text, reason: "the text to search for is empty") }
        let bytes = text.unicodeScalars.flatMap { scalar in group(variants(of: scalar).flatMap(storedForms)) }
        // Whole when joined: every form is one or more complete UTF-8 characters.
        return SearchPattern(extendedRegex: String(decoding: bytes, as: UTF8.self), isRegex: false)
    }

    /// The pattern for a POSIX extended regular expression, matched against the stored (JSON
    /// escaped) text; ASCII letters outside escapes are lowercased so that it matches either case.
    static func regex(_ expression: String) throws -> SearchPattern {
        guard !expression.isEmpty else { throw RemoteSessionError.invalidSearch(expression, reason: "the expression is empty") }
        guard !expression.contains("\n") else {
            throw RemoteSessionError.invalidSearch(expression, reason: "an expression matches within one line; leave out the newline")
        }
        var lowered = ""
        var escaped = false
        for character in expression {
            lowered.append(escaped || !character.isASCII ? character : Character(character.lowercased()))
            escaped = !escaped && character == "\\"
        }
        return SearchPattern(extendedRegex: lowered, isRegex: true)
    }

    /// The characters a query character matches: itself and its lower and upper case forms
    /// when each is one scalar, ASCII letters lowercased (grep's `-i` and awk's `tolower` fold them).
    static func variants(of scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        var result: [Unicode.Scalar] = []
        for candidate in [String(scalar), String(scalar).lowercased(), String(scalar).uppercased()] {
            let scalars = candidate.unicodeScalars
            guard scalars.count == 1, var variant = scalars.first else { continue }
            if variant.isASCII { variant = Unicode.Scalar(UInt8(ascii: variant).lowercasedASCII) }
            if !result.contains(variant) { result.append(variant) }
        }
        return result
    }

    /// Every byte string a JSON writer may store `scalar` as.
    static func storedForms(of scalar: Unicode.Scalar) -> [[UInt8]] {
        let value = scalar.value
        if let short = shortEscapes[value] { return [Array("\\\(short)".utf8), unicodeEscape(value)] }
        if value < 0x20 { return [unicodeEscape(value)] }
        if value == UInt32(UInt8(ascii: "/")) { return [[UInt8(ascii: "/")], Array("\\/".utf8)] }
        if htmlEscaped.contains(value) { return [[UInt8(value)], unicodeEscape(value)] }
        if scalar.isASCII { return [[UInt8(value)]] }
        return [Array(String(scalar).utf8), unicodeEscape(value)]
    }

    /// ASCII characters some writers escape as `\u00XX` (Go's encoder: `<`, `>`, `&`; others `'`).
    private static let htmlEscaped: Set<UInt32> = [0x3C, 0x3E, 0x26, 0x27]

    private static let shortEscapes: [UInt32: Character] = [
        0x22: "\"", 0x5C: "\\", 0x08: "b", 0x0C: "f", 0x0A: "n", 0x0D: "r", 0x09: "t",
    ]

    /// `\uxxxx` in lowercase hex, a surrogate pair beyond the BMP.
    private static func unicodeEscape(_ value: UInt32) -> [UInt8] {
        func unit(_ unit: UInt32) -> String {
            let hex = String(unit, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
        guard value > 0xFFFF else { return Array(unit(value).utf8) }
        let offset = value - 0x10000
        return Array((unit(0xD800 + (offset >> 10)) + unit(0xDC00 + (offset & 0x3FF))).utf8)
    }

    /// One alternative per form, each byte made literal for an ERE (a backslash before the
    /// ERE's special characters only: `\"` would be a stray escape to GNU grep).
    private static func group(_ forms: [[UInt8]]) -> [UInt8] {
        let literals = forms.map { form in form.flatMap { special.contains($0) ? [UInt8(ascii: "\\"), $0] : [$0.lowercasedASCII] } }
        guard literals.count > 1 else { return literals[0] }
        return [UInt8(ascii: "(")] + Array(literals.joined(separator: [UInt8(ascii: "|")])) + [UInt8(ascii: ")")]
    }

    private static let special = Set(".[]()*+?{}|^$\\".utf8)
}

extension UInt8 {
    var lowercasedASCII: UInt8 { (0x41...0x5A).contains(self) ? self + 0x20 : self }
}
