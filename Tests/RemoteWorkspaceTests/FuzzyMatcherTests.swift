import RemoteWorkspace
import Testing

/// The fuzzy matcher behind `rws files`: subsequence matching that prefers segment, file-name and
/// word starts, like fzf.
@Suite struct FuzzyMatcherTests {
    private func match(_ query: String, _ path: String) -> FuzzyMatcher.Match? {
        FuzzyMatcher(query: query).match(Array(path.utf8))
    }

    private func ranked(_ query: String, _ paths: [String]) -> [String] {
        FileMatch.rank(paths.map { Array($0.utf8) }, query: query, limit: 10).map(\.path)
    }

    @Test func aQueryMatchesOnlyWhenItsCharactersAppearInOrder() {
        #expect(match("abc", "a/b/c") != nil)
        #expect(match("cba", "a/b/c") == nil)
        #expect(match("abcd", "a/b/c") == nil)
    }

    @Test func caseIsIgnoredAndSpacesInTheQueryAreSkipped() {
        #expect(match("FF", "Sources/fileFinder.swift") != nil)
        #expect(match("file finder", "FileFinder.swift")?.positions.count == 10)
    }

    @Test func anEmptyQueryMatchesEverythingEqually() {
        let found = match("", "anything")
        #expect(found?.score == 0 && found?.positions == [])
    }

    @Test func positionsPointAtTheMatchedBytesAndPreferTheFileNameStart() throws {
        let path = "Sources/Find/FileFinder.swift"
        let found = try #require(match("ff", path))
        let bytes = Array(path.utf8)
        #expect(found.positions.map { bytes[$0] } == Array("FF".utf8))
        #expect(found.positions == [13, 17])
    }

    @Test func segmentAndFileNameStartsBeatMatchesInsideWords() {
        #expect(ranked("fm", ["src/formatter.swift", "src/FuzzyMatcher.swift"]).first == "src/FuzzyMatcher.swift")
        #expect(ranked("main", ["domain/x.txt", "main.swift"]).first == "main.swift")
        #expect(ranked("rd", ["src/readme.md", "docs/review/README.md", "r/d"]).first == "r/d")
    }

    @Test func consecutiveCharactersBeatScatteredOnes() {
        #expect(ranked("test", ["t/e/s/t.c", "tests.c"]).first == "tests.c")
    }

    @Test func amongEqualMatchesTheShorterPathComesFirst() {
        #expect(ranked("pkg", ["a/b/c/Package.swift", "Package.swift"]) == ["Package.swift", "a/b/c/Package.swift"])
    }

    @Test func nonUTF8NamesMatchByTheirBytes() throws {
        let path: [UInt8] = Array("dir/caf".utf8) + [0xE9] + Array(".txt".utf8)
        let found = try #require(FuzzyMatcher(query: "caf.t").match(path))
        #expect(found.positions == [4, 5, 6, 8, 9])
        #expect(FileMatch.rank([path], query: "caf", limit: 5).first?.pathBytes == path)
    }

    @Test func theLimitCutsTheRanking() {
        #expect(FileMatch.rank((0..<100).map { Array("f\($0)".utf8) }, query: "f", limit: 7).count == 7)
    }
}
