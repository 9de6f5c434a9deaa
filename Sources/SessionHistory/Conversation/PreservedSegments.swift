/// The messages compactions kept verbatim (``PreservedSegment``), relinked after their summary as
/// Claude Code does on resume: the segment's head continues from the summary (`anchorUuid`), what
/// followed the summary continues from the segment's tail, and the segment is shown right after
/// the summary although it was written before the boundary.
struct PreservedSegments {
    /// Record index → its parent uuid after relinking.
    private var parent: [Int: String] = [:]
    /// Record index of a kept message → the index of the summary it follows.
    private var anchorOf: [Int: Int] = [:]

    /// No relinking (the full view shows kept messages where they were written).
    init() {}

    init(records: [SessionRecord]) {
        var indexByUuid: [String: Int] = [:]
        for (index, record) in records.enumerated() where record.isTranscriptEntry {
            if let uuid = record.envelope.uuid { indexByUuid[uuid] = index }
        }
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

    /// `records` with the relinked parents (same order, same count).
    func relinked(_ records: [SessionRecord]) -> [SessionRecord] {
        guard !parent.isEmpty else { return records }
        var result = records
        for (index, uuid) in parent { result[index].envelope.parentUuid = uuid }
        return result
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
