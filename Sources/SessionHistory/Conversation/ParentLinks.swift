/// Who each record of a transcript continues from, for files Claude Code wrote and for files
/// other tools and test suites write (no `parentUuid` links, repeated uuids, parents in other files).
///
/// A record's parent is the latest earlier record carrying its `parentUuid` (else the last one in
/// the file, when that makes no cycle). A record whose link is missing, names itself or names nothing in the file
/// continues from the previous record of the same side (main or sidechain): reading such a file
/// top to bottom is the conversation. A record repeating an earlier record's uuid and parent is a
/// copy, not an edit, so it continues from the previous record too. Only two different records
/// naming one parent fork the tree. A compaction boundary starts a new root unless
/// `followCompaction`, which continues at its `logicalParentUuid`.
struct ParentLinks {
    /// The parent of each record (index into the records), `nil` for roots and non-transcript records.
    private(set) var parent: [Int?]
    /// Whether some record continues from this one (by parent or logical parent).
    private(set) var hasChild: [Bool]
    /// Whether the record takes part in the tree (`user/assistant/system/progress/attachment`).
    let isNode: [Bool]

    init(records: [SessionRecord], followCompaction: Bool) {
        parent = Array(repeating: nil, count: records.count)
        hasChild = Array(repeating: false, count: records.count)
        isNode = records.map(Self.isTreeRecord)
        var last: [String: Int] = [:]
        for index in records.indices where isNode[index] {
            if let uuid = records[index].envelope.uuid { last[uuid] = index }
        }
        var latest: [String: Int] = [:]
        var previous: [Bool: Int] = [:]
        var forward: [(record: Int, fallback: Int?)] = []
        for index in records.indices where isNode[index] {
            let envelope = records[index].envelope
            let side = envelope.isSidechain
            var link: Int?
            if let named = envelope.parentUuid, named != envelope.uuid {
                link = latest[named]
                if link == nil, let later = last[named], later > index {
                    link = later
                    forward.append((index, previous[side]))
                }
                if let link, let uuid = envelope.uuid, let earlier = latest[uuid], parent[earlier] == link {
                    parent[index] = previous[side]
                } else {
                    parent[index] = link ?? previous[side]
                }
            } else if envelope.parentUuid == nil, let logical = envelope.logicalParentUuid {
                let target = latest[logical]
                if let target { hasChild[target] = true }
                parent[index] = followCompaction ? (target ?? previous[side]) : nil
            } else {
                parent[index] = previous[side]
            }
            if let uuid = envelope.uuid { latest[uuid] = index }
            previous[side] = index
        }
        breakCycles(forward)
        for index in parent.indices { if let link = parent[index] { hasChild[link] = true } }
    }

    /// Undoes forward links that lead back to their own record: to the previous record, else a root.
    private mutating func breakCycles(_ forward: [(record: Int, fallback: Int?)]) {
        for (record, fallback) in forward where reaches(record, from: parent[record]) {
            parent[record] = fallback
            if reaches(record, from: fallback) { parent[record] = nil }
        }
    }

    private func reaches(_ target: Int, from start: Int?) -> Bool {
        var current = start
        var steps = 0
        while let index = current, steps <= parent.count {
            if index == target { return true }
            current = parent[index]
            steps += 1
        }
        return current != nil
    }

    private static func isTreeRecord(_ record: SessionRecord) -> Bool {
        switch record.kind {
        case .user, .assistant, .system, .progress, .attachment: return true
        default: return false
        }
    }
}
