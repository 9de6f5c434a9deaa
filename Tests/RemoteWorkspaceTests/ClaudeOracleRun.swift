import Foundation

/// The number after `"key":` in a JSON line, parsed by Swift (correctly rounded).
func exactNumber(_ key: String, in line: String) -> Double? {
    guard let range = line.range(of: "\"\(key)\":") else { return nil }
    let text = line[range.upperBound...].prefix { "0123456789.eE+-".contains($0) }
    return Double(text)
}

/// What one `claude -p --output-format stream-json --verbose` run reported.
struct OracleRun {
    let prompt: String
    let lines: [String]
    let messages: [[String: Any]]

    init(stdout: String, prompt: String) {
        self.prompt = prompt
        lines = stdout.split(separator: "\n").map(String.init)
        messages = lines.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    private var initRecord: [String: Any]? {
        messages.first { $0["type"] as? String == "system" && $0["subtype"] as? String == "init" }
    }

    /// `system/init`'s `session_id`.
    var sessionId: String { initRecord?["session_id"] as? String ?? "" }
    /// `system/init`'s `model`.
    var model: String? { initRecord?["model"] as? String }
    /// The `result` record.
    var result: [String: Any] { messages.last { $0["type"] as? String == "result" } ?? [:] }
    /// `total_cost_usd`, read from the line's text (Foundation's JSON parser rounds some doubles
    /// one ulp off; Swift's `Double(String)` does not).
    var costUSD: Double { lines.last { $0.contains("\"type\":\"result\"") }.flatMap { exactNumber("total_cost_usd", in: $0) } ?? -1 }
    var inputTokens: Int { (result["usage"] as? [String: Any])?["input_tokens"] as? Int ?? -1 }
    var outputTokens: Int { (result["usage"] as? [String: Any])?["output_tokens"] as? Int ?? -1 }
    var isError: Bool { result["is_error"] as? Bool ?? true }
    /// `modelUsage`, subagents included: model → (input, output) tokens.
    var modelUsage: [String: (input: Int, output: Int)] {
        (result["modelUsage"] as? [String: [String: Any]] ?? [:]).mapValues {
            ($0["inputTokens"] as? Int ?? -1, $0["outputTokens"] as? Int ?? -1)
        }
    }

    /// The prompt size of the main thread's last response as it reported it (input, cache
    /// creation and cache read tokens): the context figure a listing shows.
    var lastPromptTokens: Int? {
        guard let usage = (main("assistant").last?["message"] as? [String: Any])?["usage"] as? [String: Any] else { return nil }
        return ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"].reduce(0) { $0 + (usage[$1] as? Int ?? 0) }
    }

    /// Main-thread (not subagent) messages of a type.
    func main(_ type: String) -> [[String: Any]] {
        messages.filter { $0["type"] as? String == type && $0["parent_tool_use_id"] is NSNull }
    }

    /// Distinct ids of the main thread's model responses.
    var responseIds: [String] {
        var seen: [String] = []
        for message in main("assistant") {
            if let id = (message["message"] as? [String: Any])?["id"] as? String, !seen.contains(id) { seen.append(id) }
        }
        return seen
    }

    /// The main thread's content blocks of one kind, in order.
    func blocks(_ type: String, from role: String = "assistant") -> [[String: Any]] {
        main(role).flatMap { (($0["message"] as? [String: Any])?["content"] as? [[String: Any]]) ?? [] }
            .filter { $0["type"] as? String == type }
    }

    /// Tool results as reported: tool_use_id → (text, is_error).
    var toolResults: [String: (text: String, isError: Bool)] {
        var results: [String: (String, Bool)] = [:]
        for block in blocks("tool_result", from: "user") {
            guard let id = block["tool_use_id"] as? String else { continue }
            results[id] = (Self.text(of: block["content"]), block["is_error"] as? Bool ?? false)
        }
        return results
    }

    /// User messages the CLI made itself (the compaction summary): not tool results.
    var generatedUserMessages: Int {
        main("user").filter { message in
            let content = (message["message"] as? [String: Any])?["content"]
            guard let blocks = content as? [[String: Any]] else { return true }
            return !blocks.contains { $0["type"] as? String == "tool_result" }
        }.count
    }

    static func text(of content: Any?) -> String {
        if let text = content as? String { return text }
        let blocks = content as? [[String: Any]] ?? []
        return blocks.compactMap { $0["text"] as? String }.joined(separator: "\n")
    }
}
