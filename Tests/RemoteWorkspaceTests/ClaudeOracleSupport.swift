import Foundation
import RemoteWorkspace
import RWSTestSupport
import SessionHistory
import SSHClient
import Testing

/// A test box where the real Claude Code CLI is run over SSH in print mode (`claude -p … --output-format
/// stream-json --verbose`) against a scripted model, so that what it writes and reports can be
/// held against what rws reads back: the CLI is the oracle.
final class OracleBox: @unchecked Sendable {
    let server: TestSSHServer
    let model: ScriptedModelServer
    let connection: SSHConnection
    /// The project directory on the box (a local path: the box is this machine).
    let project: String

    /// A box whose script is made once the project's path is known.
    static func start(turnsFor script: (_ project: String) -> [[String: Any]]) async throws -> OracleBox {
        let server = try TestSSHServer()
        do {
            try ClaudeCodeCLI.install(on: server)
            let project = server.remoteHome + "/workspace/app"
            try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
            let model = try ScriptedModelServer(turns: script(project))
            // The environment lives in the box's settings, as on a configured box.
            let environment = ClaudeCodeCLI.environment(for: model)
            try FileManager.default.createDirectory(atPath: server.remoteHome + "/.claude", withIntermediateDirectories: true)
            try JSONSerialization.data(withJSONObject: ["env": environment])
                .write(to: URL(fileURLWithPath: server.remoteHome + "/.claude/settings.json"))
            return OracleBox(server: server, model: model, connection: try await server.connect(), project: project)
        } catch {
            server.stop()
            throw error
        }
    }

    private init(server: TestSSHServer, model: ScriptedModelServer, connection: SSHConnection, project: String) {
        self.server = server
        self.model = model
        self.connection = connection
        self.project = project
    }

    /// The remote command line: `claude -p PROMPT --output-format stream-json --verbose FLAGS`, in the project.
    func commandLine(_ prompt: String, _ flags: [String]) throws -> String {
        let claude = ["claude", "-p", prompt, "--output-format", "stream-json", "--verbose",
                      "--permission-mode", "bypassPermissions"] + flags
        return "PATH=\"$HOME/.local/bin:$PATH\"; export PATH; cd " + (try ShellQuoting.quotePath(project))
            + " && exec " + (try ShellQuoting.commandLine(claude)) + " </dev/null"
    }

    /// Runs one print-mode turn of the real CLI over SSH and reads its stream-json output.
    func claude(_ prompt: String, _ flags: [String] = []) async throws -> OracleRun {
        let result = try await connection.run(try commandLine(prompt, flags), timeout: .seconds(120))
        let run = OracleRun(stdout: result.stdoutText, prompt: prompt)
        #expect(result.status == .exited(0), "claude -p failed: \(result.stderrText) \(result.stdoutText.suffix(2000))")
        return run
    }

    /// Starts a turn and returns the command still running (its output is read by `OracleRun(stdout:)` later).
    func startClaude(_ prompt: String, _ flags: [String] = []) throws -> RemoteCommand {
        try connection.stream(try commandLine(prompt, flags), timeout: .seconds(120))
    }

    /// rws's sessions of the box, uncached; `window` sets the listing's first window.
    func sessions(window: Int? = nil) -> RemoteSessions {
        let options = window.map { SessionListingOptions(window: $0) } ?? SessionListingOptions()
        return RemoteSessions(connection: connection, cache: nil, options: options)
    }

    /// Claude Code's session file: `~/.claude/projects/<cwd with / as ->/<id>.jsonl`.
    func sessionFile(_ id: String) -> String {
        projectFolder + "/" + id + ".jsonl"
    }

    var projectFolder: String {
        server.remoteHome + "/.claude/projects/" + ProjectFolderName.encode(project)
    }

    /// The records of a file the CLI wrote, read with Foundation's JSON parser (not rws's).
    func writtenRecords(_ path: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map {
            guard let object = try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] else {
                throw OracleFailure.notAnObject(String($0.prefix(200)))
            }
            return object
        }
    }

    /// Every session and subagent file under the project folder.
    func writtenFiles() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: projectFolder)
        var files: [String] = []
        while let next = enumerator?.nextObject() as? String {
            if next.hasSuffix(".jsonl") { files.append(projectFolder + "/" + next) }
        }
        return files.sorted()
    }

    /// Stops the model server and sshd at once (synchronous, so a `defer` in the last test of a
    /// run still stops them before the process exits); the connection then fails and is dropped.
    func stop() {
        model.stop()
        server.stop()
    }
}

/// The number after `"key":` in a JSON line, parsed by Swift (correctly rounded).
func exactNumber(_ key: String, in line: String) -> Double? {
    guard let range = line.range(of: "\"\(key)\":") else { return nil }
    let text = line[range.upperBound...].prefix { "0123456789.eE+-".contains($0) }
    return Double(text)
}

enum OracleFailure: Error {
    case notAnObject(String)
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

/// Model turns for the oracle scripts.
enum OracleTurn {
    static func tool(_ name: String, _ input: [String: Any], saying text: String? = nil, thinking: String? = nil) -> [String: Any] {
        var blocks: [[String: Any]] = []
        if let thinking { blocks.append(["type": "thinking", "thinking": thinking]) }
        if let text { blocks.append(["type": "text", "text": text]) }
        blocks.append(["type": "tool_use", "name": name, "input": input])
        return ["blocks": blocks]
    }

    static func text(_ text: String, thinking: String? = nil, usage: [String: Int]? = nil,
                     delay: Double = 0, chunks: Int = 1, chunkDelay: Double = 0) -> [String: Any] {
        var blocks: [[String: Any]] = []
        if let thinking { blocks.append(["type": "thinking", "thinking": thinking]) }
        blocks.append(["type": "text", "text": text, "chunks": chunks])
        var turn: [String: Any] = ["blocks": blocks, "delay": delay, "chunk_delay": chunkDelay]
        if let usage { turn["usage"] = usage }
        return turn
    }
}
