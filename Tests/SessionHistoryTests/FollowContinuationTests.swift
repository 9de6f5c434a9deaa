import RWSTestSupport
import Testing

@testable import SessionHistory

/// A session loaded up to some line and then followed: the follow's events, applied to the loaded
/// entries, give what loading the whole file gives, with no entry added twice or left empty.
@Suite struct FollowContinuationTests {
    /// The conversation of `bytes` (whole lines) as a load builds it.
    private static func load(_ bytes: ArraySlice<UInt8>) -> Conversation {
        ConversationBuilder.build(records: SessionParser.parse(Array(bytes)).records)
    }

    /// What is shown of `entries`, to compare two ways of reaching them.
    private static func shown(_ entries: [ConversationEntry]) -> String {
        Conversation(entries: entries).render(.json)
    }

    /// The offsets just after each line feed of `bytes`.
    private static func lineEnds(_ bytes: [UInt8]) -> [Int] {
        bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
    }

    /// `loaded` with `events` applied as a follow's consumer applies them; records each index that
    /// is not the next one (added) or an existing one (updated).
    private static func apply(_ events: [ConversationEvent], to loaded: [ConversationEntry], file: String) -> [ConversationEntry] {
        var entries = loaded
        for event in events {
            switch event {
            case .added(let entry, let index):
                #expect(index == entries.count, "\(file): added at \(index) with \(entries.count) entries")
                entries.append(entry)
            case .updated(let entry, let index):
                #expect(entries.indices.contains(index), "\(file): updated \(index) of \(entries.count) entries")
                if entries.indices.contains(index) { entries[index] = entry }
            case .metadata:
                break
            }
        }
        return entries
    }

    @Test func loadThenFollowEqualsLoadAtTheEndForEveryCorpusSessionOnOneBranch() throws {
        var random = SeededRandom(seed: 0x5E55_1011)
        var checked = 0
        var splits = 0
        for name in try TestFiles.corpusNames() {
            let bytes = try TestFiles.corpusFile(name)
            let whole = Self.load(bytes[...])
            // A file with rewound branches shows its last chain when loaded but every branch when
            // followed in file order: the property is for sessions written on one branch.
            var fromStart = SessionFollower()
            _ = fromStart.append(bytes)
            _ = fromStart.finish()
            guard Self.shown(fromStart.entries) == Self.shown(whole.entries) else { continue }
            checked += 1
            let ends = Self.lineEnds(bytes)
            guard ends.count > 2 else { continue }
            for _ in 0..<6 {
                let offset = ends[random.int(in: 0...(ends.count - 2))]
                let loaded = Self.load(bytes.prefix(offset))
                var follower = SessionFollower(continuing: loaded, byteOffset: offset)
                var events: [ConversationEvent] = []
                var start = offset
                while start < bytes.count {
                    let end = min(start + random.int(in: 1...65_536), bytes.count)
                    events += follower.append(bytes[start..<end]).events
                    start = end
                }
                events += follower.finish().events
                let applied = Self.apply(events, to: loaded.entries, file: "\(name) from \(offset)")
                #expect(Self.shown(applied) == Self.shown(whole.entries), "\(name) loaded to \(offset), then followed")
                #expect(Self.shown(follower.entries) == Self.shown(whole.entries), "\(name) loaded to \(offset)")
                splits += 1
            }
        }
        // Most of the corpus is on one branch; a change that made none qualify would test nothing.
        #expect(checked >= 20 && splits >= 100, "\(checked) sessions, \(splits) splits")
    }

    @Test func aToolResultAfterTheLoadCompletesTheLoadedCallInsteadOfAddingAnEntry() {
        let user = #""type":"user","message":{"role":"user","content":"#
        let said = #""type":"assistant","message":{"role":"assistant","content":"#
        let head = jsonl(
            #"{"uuid":"u1","parentUuid":null,\#(user)"list it"}}"#,
            #"{"uuid":"a1","parentUuid":"u1",\#(said)[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}],"id":"m1"}}"#
        )
        let tail = jsonl(
            #"{"uuid":"a2","parentUuid":"a1",\#(said)[{"type":"text","text":"Listing."}],"id":"m1"}}"#,
            #"{"uuid":"u2","parentUuid":"a2",\#(user)[{"type":"tool_result","tool_use_id":"t1","content":"a.txt"}]}}"#,
            #"{"uuid":"a3","parentUuid":"u2",\#(said)[{"type":"text","text":"One file."}],"id":"m2"}}"#
        )
        let loaded = Self.load(head[...])
        var follower = SessionFollower(continuing: loaded, byteOffset: head.count)

        let events = follower.append(tail).events

        let described = events.map { event -> String in
            switch event {
            case .added(_, let index): "added \(index)"
            case .updated(_, let index): "updated \(index)"
            case .metadata: "metadata"
            }
        }
        // The chunk of m1 and the result of t1 complete the loaded response (1); m2 comes after it.
        #expect(described == ["updated 1", "updated 1", "added 2"])
        #expect(Self.shown(follower.entries) == Self.shown(Self.load((head + tail)[...]).entries))
    }
}
