import Testing

@testable import RemoteWorkspace

@Suite struct OutputFramingTests {
    @Test func sectionsSurviveBeingCutAnywhereIncludingInsideAMarker() {
        let output = Array("junk from a login script\n\nB dir 1\nline\nB range 0 5 ./p/x\n\nBx\nB\nB end\n".utf8)
        for cut in 0...output.count {
            var reader = SectionReader(boundary: "B")
            let sections = reader.feed(output[..<cut]) + reader.feed(output[cut...]) + reader.finish()
            #expect(sections.map(\.header) == ["dir 1", "range 0 5 ./p/x", "end"], "cut at \(cut)")
            #expect(sections.map { String(decoding: $0.content, as: UTF8.self) } == ["line", "\nBx\nB", ""], "cut at \(cut)")
        }
    }

    @Test func headOutputOfSeveralFilesSplitsByExpectedLengthAndResyncsOnAChangedFile() {
        let output = Array("==> /dev/null <==\n\n==> ./p/a <==\nabc\n==> ./p/b <==\n0123456789\n==> ./p/c <==\n\n".utf8)
        let sizes = ["./p/a": 3, "./p/b": 4, "./p/c": 1]
        let pieces = MultiFileOutput.split(output) { sizes[$0] }
        #expect(pieces["./p/a"]?.bytes == Array("abc".utf8))
        #expect(pieces["./p/a"]?.isExact == true)
        #expect(pieces["./p/b"]?.bytes == Array("0123456789".utf8), "b grew from 4 bytes while being read")
        #expect(pieces["./p/b"]?.isExact == false)
        #expect(pieces["./p/c"]?.bytes == Array("\n".utf8))
        #expect(pieces["./p/c"]?.isExact == true)
    }

    @Test func aGrownWindowJoinsTheCachedTailWithTheAppendedBytes() {
        var known = SparseBytes()
        known.add(Array("HEAD".utf8), at: 0)
        known.add(Array("tail".utf8), at: 96)
        known.add(Array("more".utf8), at: 100)
        #expect(known.bytes(0, 4) == Array("HEAD".utf8))
        #expect(known.bytes(0, 5) == nil)
        #expect(known.suffix(endingAt: 104, limit: 6, minimum: 4) == Array("ilmore".utf8))
        #expect(known.suffix(endingAt: 104, limit: 50, minimum: 4) == Array("tailmore".utf8))
        #expect(known.suffix(endingAt: 104, limit: 50, minimum: 10) == nil)
    }
}
