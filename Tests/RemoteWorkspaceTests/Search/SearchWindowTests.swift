import Testing

@testable import RemoteWorkspace

/// Which matches in a stored JSON line are something said, and how they read.
@Suite struct SearchWindowTests {
    private func window(_ line: String, _ match: String, occurrence: Int = 0) -> SearchWindow {
        var ranges: [Range<String.Index>] = []
        var searchFrom = line.startIndex
        while let range = line.range(of: match, range: searchFrom..<line.endIndex) {
            ranges.append(range)
            searchFrom = range.upperBound
        }
        let range = ranges[occurrence]
        let start = line.utf8.distance(from: line.startIndex, to: range.lowerBound)
        return SearchWindow(bytes: Array(line.utf8), matchStart: start, matchLength: match.utf8.count)
    }

    @Test func aMatchInMessageTextCountsWithItsKey() {
        let verdict = window(#"{"type":"user","message":{"content":[{"type":"text","text":"fix the flaky test"}]}}"#, "flaky").textKey()
        #expect(verdict.isText && verdict.key == "text")
    }

    @Test func aMatchInAKeyOrABookkeepingValueDoesNotCount() {
        #expect(!window(#"{"type":"user","message":{"content":"x"}}"#, "content").textKey().isText)
        #expect(!window(#"{"uuid":"abc-123","cwd":"/home/dev/app","message":{"content":"x"}}"#, "app").textKey().isText)
        #expect(!window(#"{"type" : "assistant", "message": {"content": "x"}}"#, "assistant").textKey().isText)
    }

    @Test func aMatchInsideAnEscapeDoesNotCount() {
        #expect(!window(#"{"content":"line\nnext"}"#, "nnext").textKey().isText)
        #expect(!window(#"{"content":"caf\u00e9"}"#, "e9").textKey().isText)
        #expect(!window(#"{"content":"caf\u00e9"}"#, "u00e9").textKey().isText)
        #expect(window(#"{"content":"a\\nb"}"#, "nb").textKey().isText)
    }

    @Test func anArrayOfBareStringsAndAStringLongerThanTheWindowAreText() {
        #expect(window(#"{"content":["first","second part"]}"#, "second").textKey().isText)
        let long = SearchWindow(bytes: Array("xxxxxxxx the word yyyy\"}".utf8), matchStart: 13, matchLength: 4)
        #expect(long.textKey() == (true, nil))
    }

    @Test func theSnippetIsTheDecodedStringAroundTheMatch() {
        let snippet = window(#"{"text":"Say \"Bonjour\" to the caf\u00e9\nthen \ud83d\ude80 go","type":"text"}"#, "Bonjour").snippet()
        #expect(snippet.before == "Say \"")
        #expect(snippet.match == "Bonjour")
        #expect(snippet.after == "\" to the café\nthen 🚀 go")
    }

    @Test func aWindowCutInsideACharacterOrAnEscapeDecodesWhatIsWhole() {
        let bytes = Array("é more text \\u00".utf8).dropFirst()
        let cut = SearchWindow(bytes: Array(bytes), matchStart: 2, matchLength: 4)
        #expect(cut.snippet().before == " ")
        #expect(cut.snippet().match == "more")
        #expect(cut.snippet().after == " text ")
    }
}
