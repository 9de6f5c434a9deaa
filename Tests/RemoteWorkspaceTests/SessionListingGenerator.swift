import Foundation
import RWSTestSupport

/// Seeded random session files for listing property tests: every record type the summary reads,
/// lines short or around the listing's 8 KiB and 64 KiB windows, fields left out at random,
/// `timestamp` before or after the message, the odd torn or non-JSON line.
struct RandomSessionGenerator {
    /// SplitMix64, so a failing seed reproduces.
    private var random: SeededRandom
    private var clock = 1_767_225_600  // 2026-01-01

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    /// A text whose length lands short, or its line around one of the window sizes.
    private mutating func padding() -> String {
        let length: Int
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<65: length = Int.random(in: 0...300, using: &random)
        case 65..<82: length = 8_192 + Int.random(in: -400...400, using: &random)
        case 82..<95: length = 65_536 + Int.random(in: -400...400, using: &random)
        default: length = Int.random(in: 70_000...140_000, using: &random)
        }
        return String(repeating: "w", count: max(0, length))
    }

    private mutating func timestamp() -> String {
        clock += Int.random(in: 1...5_000, using: &random)
        let text = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(clock)))
        return text.dropLast() + ".\(String(format: "%03d", Int.random(in: 0...999, using: &random)))Z"
    }

    /// The envelope members, each present or not.
    private mutating func envelope(session: String, uuid: String, parent: String?, sidechain: Bool) -> [String] {
        var members = [#""uuid":"\#(uuid)""#, #""parentUuid":\#(parent.map { "\"\($0)\"" } ?? "null")"#, #""sessionId":"\#(session)""#]
        if chance(75) { members.append(#""cwd":"/home/dev/p\#(Int.random(in: 0...2, using: &random))""#) }
        if chance(70) { members.append(#""gitBranch":"b\#(Int.random(in: 0...9, using: &random))""#) }
        if chance(70) { members.append(#""version":"2.1.\#(Int.random(in: 0...120, using: &random))""#) }
        if sidechain || chance(8) { members.append(#""isSidechain":true"#) }
        if chance(8) { members.append(#""isMeta":true"#) }
        return members
    }

    private mutating func record(session: String, index: Int, parent: String?, sidechain: Bool) -> String {
        let uuid = "u\(index)-\(Int.random(in: 0..<1_000_000, using: &random))"
        var members = envelope(session: session, uuid: uuid, parent: parent, sidechain: sidechain)
        let time = chance(85) ? #""timestamp":"\#(timestamp())""# : nil
        var body: [String]
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<35:
            let prompts = ["fix the bug \(index) ", "<command-name>/init</command-name>", "[Request interrupted by user]", "explain "]
            let text = (prompts.randomElement(using: &random) ?? "") + padding()
            body =
                chance(25)
                ? [
                    #""type":"user""#,
                    #""message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"\#(padding())"}]}"#,
                ]
                : [#""type":"user""#, #""message":{"role":"user","content":"\#(text)"}"#]
            if chance(10) { body.append(#""isMeta":true"#) }
        case 35..<65:
            let model = chance(80) ? #","model":"claude-\#(Int.random(in: 1...3, using: &random))""# : ""
            body = [
                #""type":"assistant""#,
                #""message":{"id":"m\#(index)","role":"assistant"\#(model),"content":[\#(assistantBlock())]\#(stopAndUsage())}"#,
            ]
            if chance(5) { body.append(#""isApiErrorMessage":true"#) }
        case 65..<72:
            body = [#""type":"progress""#, #""data":{"type":"bash_progress","output":"\#(padding())"}"#]
        case 72..<77:
            return #"{"type":"custom-title","customTitle":"Custom \#(index)","sessionId":"\#(session)"}"#
        case 77..<82:
            return #"{"type":"ai-title","aiTitle":"AI \#(index)","sessionId":"\#(session)"}"#
        case 82..<86:
            return #"{"type":"last-prompt","lastPrompt":"last \#(index) \#(padding())","sessionId":"\#(session)"}"#
        case 86..<89:
            return #"{"type":"tag","tag":"t\#(index)","sessionId":"\#(session)"}"#
        case 89..<92:
            return #"{"type":"summary","summary":"Summary \#(index)","leafUuid":"\#(parent ?? "none")"}"#
        case 92..<95:
            return #"{"type":"file-history-snapshot","messageId":"x","snapshot":{"blob":"\#(padding())"}}"#
        case 95..<96:
            return "not json " + padding()
        case 96..<97:
            let subtype =
                [
                    "turn_duration", "stop_hook_summary", "api_error", "compact_boundary",
                    "informational",
                ].randomElement(using: &random) ?? ""
            body = [#""type":"system""#, #""subtype":"\#(subtype)""#]
        default:
            return ""
        }
        if let time {
            if chance(50) { members.append(time) } else { members.insert(time, at: 0) }
        }
        // Claude Code writes the message before the uuid and timestamp; other writers do not.
        members.insert(contentsOf: body, at: chance(60) ? 0 : members.count)
        return "{" + members.joined(separator: ",") + "}"
    }

    /// The last content block of an assistant record: text, a tool call or thinking.
    private mutating func assistantBlock() -> String {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: #"{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}"#
        case 1: #"{"type":"thinking","thinking":"\#(padding())"}"#
        default: #"{"type":"text","text":"\#(padding())"}"#
        }
    }

    /// `,"stop_reason":…,"usage":{…}`, each present or not.
    private mutating func stopAndUsage() -> String {
        var text = ""
        if chance(50) { text += #","stop_reason":"\#(["end_turn", "tool_use"].randomElement(using: &random) ?? "")""# }
        if chance(70) {
            let value = { (random: inout SeededRandom) in Int.random(in: 0...150_000, using: &random) }
            text +=
                #","usage":{"input_tokens":\#(value(&random)),"output_tokens":12,"#
                + #""cache_creation_input_tokens":\#(value(&random)),"cache_read_input_tokens":\#(value(&random))}"#
        }
        return text
    }

    /// A session file: its name and bytes.
    mutating func session() -> (name: String, bytes: [UInt8]) {
        let id = String(
            format: "%08x-0000-4000-8000-%012llx", UInt32.random(in: 0...UInt32.max, using: &random),
            UInt64.random(in: 0..<(1 << 48), using: &random))
        return (id + ".jsonl", transcript(session: id, sidechain: false))
    }

    /// A 2.0.x subagent file beside its session (`agent-<8 hex>.jsonl`, records naming the session).
    mutating func agent(of session: String) -> (name: String, bytes: [UInt8]) {
        let name = String(format: "agent-%08x.jsonl", UInt32.random(in: 0...UInt32.max, using: &random))
        return (name, transcript(session: session, sidechain: true))
    }

    private mutating func transcript(session id: String, sidechain: Bool) -> [UInt8] {
        var lines: [String] = []
        var parent: String?
        for index in 0..<Int.random(in: 1...10, using: &random) {
            let line = record(session: id, index: index, parent: parent, sidechain: sidechain)
            if let range = line.range(of: #""uuid":""#) {
                parent = String(line[range.upperBound...].prefix { $0 != "\"" })
            }
            lines.append(line)
        }
        var text = lines.joined(separator: "\n")
        if chance(85) { text += "\n" }
        return Array(text.utf8)
    }
}
