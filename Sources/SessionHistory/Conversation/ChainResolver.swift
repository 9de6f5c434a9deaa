/// Claude Code's rule for which records a session displays (SDK `_build_conversation_chain`).
///
/// 1. Transcript entries are the `user/assistant/system/progress/attachment` records, linked by
///    `ParentLinks` (which also reads files without links or with repeated uuids in file order).
/// 2. Terminals are entries no other entry names as parent; from each, walk up to the nearest
///    user/assistant record: a leaf.
/// 3. Prefer leaves that are not sidechain, team or meta records; take the latest in file order.
/// 4. Walk the parents from that leaf to the root (cycle-guarded) and reverse.
///
/// A compaction boundary has no parent; with `followCompaction` the walk continues at its
/// `logicalParentUuid`, so the pre-compaction history still in the file is shown too.
///
/// Parallel tool calls branch the tree (2.1.x): each chunk of a response holds one `tool_use`,
/// each result names its call's chunk as parent, and the conversation goes on from one result
/// only. Like Claude Code's resume, the chunks of every response on the chain and the results
/// of their calls are recovered, and everything is put back in file order.
struct ChainResolver {
    let records: [SessionRecord]

    init(records: [SessionRecord]) {
        self.records = records
    }

    /// The displayed records as indices into `records` (file order), and how many other leaves
    /// of the same kind (abandoned branches) are not shown.
    func resolve(followCompaction: Bool) -> (chain: [Int], otherLeafCount: Int, leaf: Int?) {
        let links = ParentLinks(records: records, followCompaction: followCompaction)
        let leaves = findLeaves(links)
        let preferred = leaves.filter { isPreferredLeaf(records[$0]) }
        let pool = preferred.isEmpty ? leaves : preferred
        guard let leaf = pool.max() else { return ([], 0, nil) }
        let shown = recoverParallelCalls(walk(from: leaf, links))
        return (shown.sorted(), pool.subtracting(shown).count, leaf)
    }

    /// Adds the other chunks of each response on the chain and the results of their tool calls.
    private func recoverParallelCalls(_ chain: [Int]) -> Set<Int> {
        var shown = Set(chain)
        let messageIds = Set(chain.compactMap { records[$0].assistant?.messageId })
        guard !messageIds.isEmpty else { return shown }
        var callChunks = Set<String>()
        for (index, record) in records.enumerated() {
            guard let id = record.assistant?.messageId, messageIds.contains(id) else { continue }
            shown.insert(index)
            if let uuid = record.envelope.uuid { callChunks.insert(uuid) }
        }
        for (index, record) in records.enumerated() {
            guard let user = record.user, let parent = record.envelope.parentUuid, callChunks.contains(parent),
                user.content.contains(where: { $0.toolResult != nil })
            else { continue }
            shown.insert(index)
        }
        return shown
    }

    /// From each record nobody continues from, the nearest user/assistant record above it.
    private func findLeaves(_ links: ParentLinks) -> Set<Int> {
        var leaves = Set<Int>()
        for index in records.indices where links.isNode[index] && !links.hasChild[index] {
            if let leaf = nearestMessage(from: index, links) { leaves.insert(leaf) }
        }
        return leaves
    }

    private func isMessage(_ record: SessionRecord) -> Bool {
        switch record.kind {
        case .user, .assistant: return true
        default: return false
        }
    }

    private func isPreferredLeaf(_ record: SessionRecord) -> Bool {
        !record.envelope.isSidechain && record.envelope.teamName == nil && !record.envelope.isMeta
    }

    private func nearestMessage(from start: Int, _ links: ParentLinks) -> Int? {
        var current: Int? = start
        var seen = Set<Int>()
        while let index = current, seen.insert(index).inserted {
            if isMessage(records[index]) { return index }
            current = links.parent[index]
        }
        return nil
    }

    private func walk(from leaf: Int, _ links: ParentLinks) -> [Int] {
        var chain: [Int] = []
        var seen = Set<Int>()
        var current: Int? = leaf
        while let index = current, seen.insert(index).inserted {
            chain.append(index)
            current = links.parent[index]
        }
        return chain.reversed()
    }
}
