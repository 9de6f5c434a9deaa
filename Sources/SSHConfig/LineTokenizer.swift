/// One non-empty configuration line split the way OpenSSH's `readconf.c` splits it:
/// a keyword (lower-cased, since keywords are case-insensitive) and its arguments.
struct TokenizedLine: Equatable {
    /// The keyword, lower-cased.
    let keyword: String
    /// The keyword as written, for messages.
    let spelling: String
    /// The arguments with quotes removed and escapes resolved.
    let arguments: [String]
}

/// Splits configuration lines into keyword and arguments.
///
/// The rules follow OpenSSH (`strdelim` for the keyword, `argv_split` for the rest):
/// the keyword ends at whitespace or `=`, one `=` with optional blanks around it may
/// separate keyword and value, `"` and `'` quote (also in the middle of a word),
/// a backslash escapes a quote, a backslash or (outside quotes) a blank, and an
/// argument starting with `#` ends the line as a comment.
enum LineTokenizer {
    private static let blanks: Set<Character> = [" ", "\t", "\r", "\n", "\u{0C}"]

    /// Tokenizes `line`, returning `nil` for blank and comment-only lines.
    static func tokenize(_ line: String, at location: SourceLocation) throws -> TokenizedLine? {
        let chars = Array(line)
        var index = skipBlanks(chars, from: 0)
        guard index < chars.count, chars[index] != "#" else { return nil }
        let keywordStart = index
        while index < chars.count, !blanks.contains(chars[index]), chars[index] != "=" {
            index += 1
        }
        let spelling = String(chars[keywordStart..<index])
        let endedAtEquals = index < chars.count && chars[index] == "="
        if endedAtEquals { index += 1 }
        index = skipBlanks(chars, from: index)
        // `Keyword = value`: the `=` comes after the blanks.
        if !endedAtEquals, index < chars.count, chars[index] == "=" {
            index = skipBlanks(chars, from: index + 1)
        }
        let arguments = try splitArguments(Array(chars[index...]), at: location)
        return TokenizedLine(keyword: spelling.lowercased(), spelling: spelling, arguments: arguments)
    }

    /// Splits the value part of a line into arguments (OpenSSH's `argv_split`).
    static func splitArguments(_ chars: [Character], at location: SourceLocation) throws -> [String] {
        var arguments: [String] = []
        var index = skipBlanks(chars, from: 0)
        while index < chars.count, chars[index] != "#" {
            let (argument, next) = try readArgument(chars, from: index, at: location)
            arguments.append(argument)
            index = skipBlanks(chars, from: next)
        }
        return arguments
    }

    private static func readArgument(
        _ chars: [Character], from start: Int, at location: SourceLocation
    ) throws -> (String, Int) {
        var argument = ""
        var quote: Character?
        var index = start
        while index < chars.count {
            let char = chars[index]
            if char == "\\", index + 1 < chars.count, isEscapable(chars[index + 1], inQuote: quote != nil) {
                argument.append(chars[index + 1])
                index += 2
                continue
            }
            if quote == nil, blanks.contains(char) { break }
            if quote == nil, char == "\"" || char == "'" {
                quote = char
            } else if char == quote {
                quote = nil
            } else {
                argument.append(char)
            }
            index += 1
        }
        if quote != nil { throw SSHConfigError.unbalancedQuotes(location: location) }
        return (argument, index)
    }

    private static func isEscapable(_ char: Character, inQuote: Bool) -> Bool {
        char == "'" || char == "\"" || char == "\\" || (!inQuote && char == " ")
    }

    private static func skipBlanks(_ chars: [Character], from start: Int) -> Int {
        var index = start
        while index < chars.count, blanks.contains(chars[index]) { index += 1 }
        return index
    }
}
