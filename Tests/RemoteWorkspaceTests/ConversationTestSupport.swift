import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import SessionHistory
import Testing

extension TestBox {
    /// Conversation options for the box's project whose environment points Claude Code at the
    /// box's model (conversation tests make the box with `modelInSettings: false`, so this is the
    /// only way the CLI learns of it).
    func options(
        start: ClaudeConversationStart = .new, directory: String?? = .none, fork: Bool = false,
        mode: ClaudePermissionMode? = nil, model: String? = nil, apiKey: String? = "sk-test"
    ) -> ClaudeConversationOptions {
        ClaudeConversationOptions(
            directory: directory ?? project, start: start, fork: fork, permissionMode: mode, model: model,
            environment: ClaudeCodeCLI.environment(for: self.model, apiKey: apiKey))
    }

    /// Claude Code's folder for the project: `~/.claude/projects/<its name for the cwd>`.
    var projectFolder: String { claudeProjects + "/" + ProjectFolderName.encode(project) }

    /// Claude Code's session file for the project: `<projectFolder>/<id>.jsonl`.
    func sessionFile(_ id: String) -> String {
        projectFolder + "/" + id + ".jsonl"
    }

    /// Waits until no process runs in the project directory (Claude Code, its shell, its tools).
    func waitUntilNoProcess(timeout: Duration = .seconds(10)) async throws -> [(pid: Int32, command: String)] {
        try await processes(within: timeout) { $0.isEmpty }
    }

    /// Waits until a process whose command line holds `command` runs in the project directory:
    /// Claude Code starts a tool some time after it streams the call, longer on a cold machine.
    func waitUntilRunning(_ command: String, timeout: Duration = .seconds(15)) async throws -> Bool {
        try await processes(within: timeout) { $0.contains { $0.command.contains(command) } }
            .contains { $0.command.contains(command) }
    }

    /// The processes in the project directory once `done` holds for them, or when `timeout` is up.
    private func processes(
        within timeout: Duration, until done: ([(pid: Int32, command: String)]) -> Bool
    ) async throws -> [(pid: Int32, command: String)] {
        let deadline = ContinuousClock.now + timeout
        var seen = ClaudeCodeCLI.processes(in: project)
        while !done(seen), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            seen = ClaudeCodeCLI.processes(in: project)
        }
        return seen
    }
}

/// A model turn of the script.
enum Turn {
    static func text(_ text: String, chunks: Int = 1, delay: Double = 0) -> [String: Any] {
        ["blocks": [["type": "text", "text": text, "chunks": chunks]], "chunk_delay": delay]
    }

    static func bash(_ command: String, saying text: String = "Running it.", thinking: String? = nil) -> [String: Any] {
        var blocks: [[String: Any]] = []
        if let thinking { blocks.append(["type": "thinking", "thinking": thinking]) }
        blocks.append(["type": "text", "text": text, "chunks": 2])
        blocks.append(["type": "tool_use", "name": "Bash", "input": ["command": command, "description": "test command"]])
        return ["blocks": blocks]
    }

    static func error(_ status: Int, _ message: String) -> [String: Any] {
        ["status": status, "message": message]
    }
}

/// Reads one turn to its end, answering permission questions with `decide`.
func collect(
    _ turn: AsyncThrowingStream<ClaudeEvent, Error>, in conversation: ClaudeConversation,
    decide: (ClaudePermissionRequest) -> ClaudePermissionDecision = { _ in .deny(message: "not in this test") },
    onEvent: (ClaudeEvent) async throws -> Void = { _ in }
) async throws -> [ClaudeEvent] {
    var events: [ClaudeEvent] = []
    for try await event in turn {
        events.append(event)
        if case .permissionRequest(let request) = event { try await conversation.respond(to: request, with: decide(request)) }
        try await onEvent(event)
    }
    return events
}

extension Array where Element == ClaudeEvent {
    var session: ClaudeSessionInfo? { compactMap { if case .sessionStarted(let info) = $0 { info } else { nil } }.first }
    var result: ClaudeTurnResult? { compactMap { if case .result(let result) = $0 { result } else { nil } }.last }
    var streamedText: String { compactMap { if case .textDelta(let text) = $0 { text } else { nil } }.joined() }
    var streamedThinking: String { compactMap { if case .thinkingDelta(let text) = $0 { text } else { nil } }.joined() }
    var toolCalls: [ClaudeToolCall] { compactMap { if case .toolCall(let call) = $0 { call } else { nil } } }
    var toolResults: [ClaudeToolResult] { compactMap { if case .toolResult(let result) = $0 { result } else { nil } } }
    var permissionRequests: [ClaudePermissionRequest] {
        compactMap { if case .permissionRequest(let request) = $0 { request } else { nil } }
    }
    var errors: [ClaudeConversationError] { compactMap { if case .error(let error) = $0 { error } else { nil } } }
    var usages: [TokenUsage] { compactMap { if case .usage(let usage) = $0 { usage } else { nil } } }
}

/// Every line of a JSONL file parses as JSON (the file was not cut mid-line).
func isValidJSONL(_ path: String) throws -> Bool {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    guard text.isEmpty || text.hasSuffix("\n") else { return false }
    return text.split(separator: "\n").allSatisfy { (try? JSONValue(parsing: String($0))) != nil }
}
