import Foundation
import RWSTestSupport
import SessionHistory
import Testing

@testable import RemoteWorkspace

/// The listing cache's binary index gives back every field it was given, and anything else it
/// is handed (cut, damaged, from a newer rws) is no entry at all rather than a wrong one.
@Suite struct CacheIndexCodingTests {
    static func everyFieldSet() -> CachedSession {
        var summary = SessionSummary(id: "11111111-0000-0000-0000-000000000001", fileSize: 123_456_789)
        summary.title = "Fix the “build” — naïve 🚀"
        summary.titleSource = .aiTitle
        summary.firstPrompt = "first\tprompt"
        summary.cwd = "/home/me/app with space"
        summary.gitBranch = "feature/x"
        summary.firstTimestamp = "2026-01-02T10:00:05.000Z"
        summary.lastTimestamp = "2026-01-02T11:00:05.000Z"
        summary.model = "claude-opus-4-6"
        summary.version = "2.1.38"
        summary.tag = "review"
        summary.continuedIn = "33333333-0000-0000-0000-000000000003"
        summary.continuedFrom = "44444444-0000-0000-0000-000000000004"
        summary.permissionMode = "acceptEdits"
        summary.provider = "firstParty"
        summary.costUSD = 1.2345
        summary.isSidechain = true
        summary.activity = .toolPending
        summary.contextUse = ContextUse(tokens: 150_000, window: 200_000)
        summary.subagentCount = 3
        summary.messageCount = 42
        summary.modificationTime = 1_795_740_191
        return CachedSession(
            path: "/home/me/.claude/projects/-home-me-app/11111111-0000-0000-0000-000000000001.jsonl", identity: "65024_1133750",
            size: 123_456_789, mtime: 1_795_740_191, summary: summary, leafMapDigest: .max,
            leafSummaries: ["leaf-1": "A summary", "leaf-2": ""],
            parentSessionId: "22222222-0000-0000-0000-000000000002", bytesOffset: 16, headLength: 8_192, tailLength: 65_536,
            bytesHash: 0xffff_ffff, messageCount: 41)
    }

    static func noOptionalSet() -> CachedSession {
        CachedSession(
            path: "", identity: "1_2", size: 0, mtime: -1, summary: SessionSummary(id: "x", fileSize: 0), leafMapDigest: 0,
            leafSummaries: [:], parentSessionId: nil, bytesOffset: 0, headLength: 0, tailLength: 0, bytesHash: 0, messageCount: nil)
    }

    static func encoded(_ entries: [CachedSession], generation: UInt64 = 7) -> [UInt8] {
        var writer = BinaryWriter()
        CacheIndexCoding.encode(entries, generation: generation, into: &writer)
        return writer.bytes
    }

    static func decoded(_ bytes: [UInt8]) -> (generation: UInt64, entries: [CachedSession])? {
        bytes.withUnsafeBytes(CacheIndexCoding.decode)
    }

    @Test func everyFieldComesBackAsItWasWritten() throws {
        let entries = [Self.everyFieldSet(), Self.noOptionalSet(), Self.everyFieldSet()]
        let decoded = try #require(Self.decoded(Self.encoded(entries, generation: .max)))
        #expect(decoded.generation == .max)
        #expect(decoded.entries == entries)
        #expect(Self.decoded(Self.encoded([]))?.entries == [])
    }

    /// A new field must be written and read by `CacheIndexCoding` (and the cache's magic moved on):
    /// these counts fail first, so that it is not silently dropped from cached listings.
    @Test func theCodingKnowsEveryStoredField() {
        #expect(Mirror(reflecting: Self.everyFieldSet().summary).children.count == 23, "update CacheIndexCoding for SessionSummary")
        #expect(Mirror(reflecting: Self.everyFieldSet()).children.count == 13, "update CacheIndexCoding for CachedSession")
        #expect(Mirror(reflecting: ContextUse(tokens: 1, window: 2)).children.count == 2, "update CacheIndexCoding for ContextUse")
    }

    @Test func everyCutOfAnIndexIsRefused() {
        let bytes = Self.encoded([Self.everyFieldSet(), Self.noOptionalSet()])
        for length in 0..<bytes.count {
            #expect(Self.decoded(Array(bytes.prefix(length))) == nil, "cut at \(length)")
        }
        #expect(Self.decoded(bytes + [0]) == nil, "a byte after the last entry")
    }

    @Test func aNameThisVersionDoesNotKnowRefusesTheIndex() throws {
        let bytes = Self.encoded([Self.everyFieldSet()])
        // The activity is written as its name: one a newer rws might write instead.
        let name = Array("toolPending".utf8)
        let start = try #require(bytes.indices.first { bytes[$0...].starts(with: name) })
        var renamed = bytes
        renamed.replaceSubrange(start..<(start + name.count), with: Array("toolPendinG".utf8))
        #expect(Self.decoded(renamed) == nil)
    }

    @Test func damagedBytesNeverCrashTheReader() {
        let bytes = Self.encoded([Self.everyFieldSet(), Self.noOptionalSet()])
        // Seeded: a damage that breaks the reader comes back on every run.
        var generator = SeededRandom(seed: 0xDA3A6E)
        for _ in 0..<2_000 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            // Either refused or some entries: what matters is that it returns.
            _ = Self.decoded(damaged)
        }
    }
}
