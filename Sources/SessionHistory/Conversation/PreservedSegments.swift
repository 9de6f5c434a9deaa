/// The messages compactions kept verbatim (``PreservedSegment``), relinked after their summary as
/// Claude Code does on resume: new parents for the segment's head and for what followed the
/// summary, and a display position right after the summary.
struct PreservedSegments {
    /// Record index → the uuid of its parent after relinking.
    private(set) var parent: [Int: String] = [:]
    /// Record index of a kept message → the index of the summary it follows.
    private var anchorOf: [Int: Int] = [:]

    /// No relinking.
    init() {}

    init(records: [SessionRecord], indexByUuid: [String: Int]) {
        for record in records {
            guard let segment = record.system?.compaction?.preservedSegment,
                  let head = indexByUuid[segment.headUuid], let anchor = indexByUuid[segment.anchorUuid],
                  var index = indexByUuid[segment.tailUuid]
            else { continue }
            for (child, other) in records.enumerated() where other.isTranscriptEntry && child != head {
                if other.envelope.parentUuid == segment.anchorUuid { parent[child] = segment.tailUuid }
            }
            parent[head] = segment.anchorUuid
            // The segment itself: from its tail up to its head, by the parents as written.
            var seen = Set<Int>()
            while seen.insert(index).inserted {
                anchorOf[index] = anchor
                guard index != head, let up = records[index].envelope.parentUuid.flatMap({ indexByUuid[$0] }) else { break }
                index = up
            }
        }
    }

    /// The shown records in display order: file order, with kept messages right after their summary.
    func ordered(_ shown: Set<Int>) -> [Int] {
        guard !anchorOf.isEmpty else { return shown.sorted() }
        return shown.sorted { key($0) < key($1) }
    }

    private func key(_ index: Int) -> (Int, Int, Int) {
        if let anchor = anchorOf[index] { return (anchor, 1, index) }
        return (index, 0, 0)
    }
}
