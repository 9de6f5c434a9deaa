import Testing

@testable import SessionHistory

@Suite struct JSONParserTests {
    @Test func parsesEveryKindOfValueKeepingMemberOrder() throws {
        let value = try JSONValue(parsing: #"{"b": [1, -2.5e2, true, false, null], "a": "x"}"#)

        guard case .object(let object) = value else {
            Issue.record("not an object")
            return
        }
        #expect(object.members.map(\.key) == ["b", "a"])
        #expect(value["b"] == .array([.number(1), .number(-250), .bool(true), .bool(false), .null]))
        #expect(value["a"]?.stringValue == "x")
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let value = try JSONValue(parsing: #""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#)

        #expect(value.stringValue == "a\"b\\c/d\n\té😀")
    }

    @Test func replacesLoneSurrogatesInsteadOfFailing() throws {
        let value = try JSONValue(parsing: #""bad \udcb2 byte, high \ud800 alone, end \ud83d""#)

        #expect(value.stringValue == "bad \u{FFFD} byte, high \u{FFFD} alone, end \u{FFFD}")
    }

    @Test func replacesInvalidUTF8InsteadOfFailing() throws {
        let bytes: [UInt8] = [0x22, 0x61, 0xFF, 0xC3, 0x62, 0x22]

        let value = try JSONValue(parsing: bytes)

        #expect(value.stringValue == "a\u{FFFD}\u{FFFD}b")
    }

    @Test(arguments: [
        (#"{"a":1,}"#, "trailing comma"), (#"{"a" 1}"#, "missing colon"), (#"[1 2]"#, "missing comma"),
        (#"{"a":tru}"#, "bad literal"), (#"01"#, "leading zero"), (#""\x""#, "bad escape"), (#"{"a":1} x"#, "trailing bytes"),
        (#"{"a":"#, "ends early"), (#"-"#, "bare minus"), (#"1."#, "bare point"),
    ])
    func rejectsMalformedJSON(_ text: String, _ what: String) {
        #expect(throws: JSONError.self, "\(what)") { try JSONValue(parsing: text) }
    }

    @Test func reportsTheOffsetOfTheProblem() {
        #expect(throws: JSONError.unexpectedByte(UInt8(ascii: "x"), offset: 5)) { try JSONValue(parsing: #"[1, 2x]"#) }
    }

    @Test func refusesNestingDeeperThanTheCapWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)

        #expect(throws: JSONError.nestingTooDeep(offset: JSONScanner.maximumDepth)) { try JSONValue(parsing: deep) }
    }

    @Test func acceptsNestingUpToTheCap() throws {
        let depth = JSONScanner.maximumDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)

        #expect(throws: Never.self) { try JSONValue(parsing: text) }
    }

    @Test func writerOutputParsesBackToTheSameValue() throws {
        let value = JSONValue.object(
            JSONObject([
                JSONMember("text", .string("quote \" backslash \\ newline \n control \u{01} é")),
                JSONMember("list", .array([.number(3), .number(0.5), .null, .bool(true)])),
            ]))

        for pretty in [false, true] {
            #expect(try JSONValue(parsing: JSONWriter.string(from: value, pretty: pretty)) == value)
        }
    }

    @Test func rawJSONParsesOnlyWhenAsked() throws {
        let raw = RawJSON(#"{"command": "ls -la"}"#)

        #expect(raw.text == #"{"command": "ls -la"}"#)
        #expect(raw.value?["command"]?.stringValue == "ls -la")
        #expect(RawJSON("{oops").value == nil)
    }
}
