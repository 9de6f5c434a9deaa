/// Parsers for the value forms OpenSSH uses, shared by the config file, the
/// environment and the command-line flags so that all three accept the same text.
enum ValueParsing {
    /// What a port error says is accepted.
    static let portExpectation = "a decimal number from 1 to 65535"
    /// What a yes/no error says is accepted.
    static let flagExpectation = "yes or no"
    /// What a time error says is accepted.
    static let timeExpectation = "seconds, or a time such as 90, 1m30s, 2h (units s m h d w)"
    /// What a count error says is accepted.
    static let countExpectation = "a non-negative decimal number"

    /// A TCP port as OpenSSH's `a2port` accepts it: decimal, 1...65535.
    static func port(_ text: String) -> Int? {
        guard let value = count(text), (1...65535).contains(value) else { return nil }
        return value
    }

    /// A non-negative decimal integer that fits in an `Int32`, like `atoi_err`.
    static func count(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }),
            let value = Int(text), value <= Int(Int32.max)
        else { return nil }
        return value
    }

    /// `yes`/`true` or `no`/`false`, case-insensitively, as OpenSSH's flag options.
    static func flag(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true": return true
        case "no", "false": return false
        default: return nil
        }
    }

    /// A time in seconds as OpenSSH's `convtime` reads it: a sequence of
    /// numbers each with an optional unit (s, m, h, d, w; any case).
    static func seconds(_ text: String) -> Int? {
        guard !text.isEmpty else { return nil }
        var total = 0, digits = ""
        for char in text {
            if char.isASCII, char.isNumber {
                digits.append(char)
                continue
            }
            guard let multiplier = unitSeconds[Character(char.lowercased())],
                let value = count(digits)
            else { return nil }
            total += value * multiplier
            digits = ""
        }
        if !digits.isEmpty {
            guard let value = count(digits) else { return nil }
            total += value
        }
        return total <= Int(Int32.max) ? total : nil
    }

    private static let unitSeconds: [Character: Int] = [
        "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800,
    ]
}
