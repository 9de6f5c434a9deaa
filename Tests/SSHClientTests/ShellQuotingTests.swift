import Testing

@testable import SSHClient

@Suite struct ShellQuotingTests {
    @Test func plainWordsStayAsTheyAre() throws {
        #expect(try ShellQuoting.quote("src/main.swift") == "src/main.swift")
    }

    @Test func emptyWordBecomesTwoQuotes() throws {
        #expect(try ShellQuoting.quote("") == "''")
    }

    @Test func singleQuotesAreClosedEscapedAndReopened() throws {
        #expect(try ShellQuoting.quote("it's") == #"'it'\''s'"#)
    }

    @Test(arguments: ["$(touch x)", "`id`", "a b", "a\nb", "~", "*", "FOO=bar", "a;b", "\\"])
    func specialWordsAreQuoted(word: String) throws {
        let quoted = try ShellQuoting.quote(word)
        #expect(quoted.hasPrefix("'") && quoted.hasSuffix("'"))
    }

    @Test func nulIsRefused() {
        #expect(throws: ShellQuotingError.containsNUL("a\0b")) { try ShellQuoting.quote("a\0b") }
    }

    @Test func commandLineQuotesEveryWord() throws {
        #expect(try ShellQuoting.commandLine(["printf", "%s", "a b"]) == "printf %s 'a b'")
    }
}

@Suite struct RemotePathQuotingTests {
    @Test func homeRelativePathsKeepTheHomeOutsideTheQuotes() throws {
        #expect(try ShellQuoting.quotePath("~/my work") == #""$HOME"/'my work'"#)
        #expect(try ShellQuoting.quotePath("~") == #""$HOME""#)
    }

    @Test func otherTildesAreLiteral() throws {
        #expect(try ShellQuoting.quotePath("~other/x") == "'~other/x'")
        #expect(try ShellQuoting.quotePath("/tmp/~") == "'/tmp/~'")
    }
}
