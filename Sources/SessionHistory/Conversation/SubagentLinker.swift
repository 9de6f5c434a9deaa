/// Finds the Task/Agent tool call that started each subagent transcript.
///
/// Evidence, strongest first: the `.meta.json` `toolUseId`; a tool result whose `toolUseResult`
/// names the agent id; `agent_progress` records naming it (their `parentToolUseID`); and, for
/// 2.0.x files and inline sidechains that carry no id, the call whose `input.prompt` equals the
/// agent's first prompt. Each call is linked to at most one agent.
struct SubagentLinker {
    private var callByAgentId: [String: String] = [:]
    private var promptCalls: [(prompt: String, toolUseId: String)] = []
    private var used = Set<String>()

    init(mainRecords: [SessionRecord]) {
        for record in mainRecords {
            switch record.kind {
            case .user(let user):
                if let agentId = user.resultAgentId, let result = user.content.lazy.compactMap(\.toolResult).first {
                    callByAgentId[agentId] = callByAgentId[agentId] ?? result.toolUseId
                }
            case .progress(let progress):
                if let agentId = progress.agentId, let call = progress.parentToolUseId {
                    callByAgentId[agentId] = callByAgentId[agentId] ?? call
                }
            case .assistant(let assistant):
                for use in assistant.content.compactMap(\.toolUse) where use.name == "Task" || use.name == "Agent" {
                    if let prompt = use.input.value?["prompt"]?.stringValue { promptCalls.append((prompt, use.id)) }
                }
            default:
                break
            }
        }
    }

    mutating func linkFile(_ file: SubagentSource, firstPrompt: String?) -> String? {
        if let call = file.metadata?.toolUseId ?? callByAgentId[file.agentId] {
            used.insert(call)
            return call
        }
        return linkInline(firstPrompt: firstPrompt)
    }

    mutating func linkInline(firstPrompt: String?) -> String? {
        guard let prompt = firstPrompt?.trimmed, !prompt.isEmpty,
            let match = promptCalls.first(where: { $0.prompt.trimmed == prompt && !used.contains($0.toolUseId) })
        else { return nil }
        used.insert(match.toolUseId)
        return match.toolUseId
    }

    /// Pre-2.0 inline sidechains: the sidechain records of a main file, grouped by root.
    static func inlineSidechainGroups(in records: [SessionRecord]) -> [[SessionRecord]] {
        var parentOf: [String: String] = [:]
        for record in records where record.envelope.isSidechain {
            if let uuid = record.envelope.uuid { parentOf[uuid] = record.envelope.parentUuid }
        }
        guard !parentOf.isEmpty, records.contains(where: { !$0.envelope.isSidechain && $0.isTranscriptEntry }) else { return [] }
        var groups: [String: [SessionRecord]] = [:]
        var order: [String] = []
        var rootCache: [String: String] = [:]
        for record in records where record.envelope.isSidechain {
            guard let uuid = record.envelope.uuid else { continue }
            let root = rootOf(uuid, parentOf: parentOf, cache: &rootCache)
            if groups[root] == nil { order.append(root) }
            groups[root, default: []].append(record)
        }
        return order.compactMap { groups[$0] }
    }

    /// The root of `uuid`'s chain; every record passed on the way is remembered with it.
    private static func rootOf(_ uuid: String, parentOf: [String: String], cache: inout [String: String]) -> String {
        var path: [String] = []
        var current = uuid
        var seen: Set<String> = [uuid]
        while cache[current] == nil, let parent = parentOf[current], seen.insert(parent).inserted {
            path.append(current)
            current = parent
        }
        let root = cache[current] ?? current
        for visited in path + [current] { cache[visited] = root }
        return root
    }
}

extension String {
    /// The string without surrounding whitespace and newlines.
    var trimmed: String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
