import Testing

@testable import SSHConfig

@Suite("Line tokenizer")
struct LineTokenizerTests {
    let here = SourceLocation(file: "config", line: 3)

    func tokens(_ line: String) throws -> TokenizedLine? {
        try LineTokenizer.tokenize(line, at: here)
    }

    @Test("keywords are lower-cased and may be separated from the value by blanks or one =")
    func keywordSeparators() throws {
        for line in ["Port 22", "  PORT=22", "port = 22", "Port\t=22", "Port= 22"] {
            #expect(try tokens(line) == TokenizedLine(keyword: "port", spelling: line.trimmingPrefixBlanks, arguments: ["22"]))
        }
    }

    @Test("double and single quotes keep blanks inside one argument, also mid-word")
    func quotes() throws {
        #expect(try tokens(#"IdentityFile "~/my keys/id" 'b c' x"y z"w"#)?.arguments == ["~/my keys/id", "b c", "xy zw"])
    }

    @Test("a backslash escapes quotes, backslashes and (outside quotes) a blank")
    func escapes() throws {
        #expect(try tokens(#"IdentityFile a\ b "c\"d" e\\f g\n"#)?.arguments == ["a b", #"c"d"#, #"e\f"#, #"g\n"#])
    }

    @Test("blank lines, comment lines and trailing comments carry nothing")
    func comments() throws {
        #expect(try tokens("") == nil)
        #expect(try tokens("   # Port 22") == nil)
        #expect(try tokens("Port 22 # the default")?.arguments == ["22"])
        #expect(try tokens("User a#b")?.arguments == ["a#b"])
    }

    @Test("an unclosed quote is an error naming the line")
    func unclosedQuote() {
        #expect(throws: SSHConfigError.unbalancedQuotes(location: here)) { try tokens(#"User "bob"#) }
    }
}

extension String {
    /// The keyword as written, for comparing spellings in tests.
    var trimmingPrefixBlanks: String {
        String(drop { $0 == " " || $0 == "\t" }.prefix { $0 != " " && $0 != "=" && $0 != "\t" })
    }
}
