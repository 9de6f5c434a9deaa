import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import SessionHistory
import Testing

/// The real Claude Code CLI run over SSH in print mode (`claude -p … --output-format stream-json
/// --verbose`) on a box against a scripted model, so that what it writes and reports can be held
/// against what rws reads back: the CLI is the oracle.
final class ClaudeOracle: @unchecked Sendable {
    /// The box (a server of its own; the model's environment in `~/.claude/settings.json`, as on
    /// a configured box).
    let box: TestBox
    let connection: SSHConnection
    var project: String { box.project }

    /// An oracle on a new box whose model's script is made once the project's path is known.
    static func start(turnsFor script: (_ project: String) -> [[String: Any]]) async throws -> ClaudeOracle {
        let box = try TestBox(claude: script)
        do {
            return ClaudeOracle(box: box, connection: try await box.server.connect())
        } catch {
            box.remove()
            throw error
        }
    }

    private init(box: TestBox, connection: SSHConnection) {
        self.box = box
        self.connection = connection
    }

    /// The remote command line: `claude -p PROMPT --output-format stream-json --verbose FLAGS`, in the project.
    func commandLine(_ prompt: String, _ flags: [String]) throws -> String {
        let claude =
            [
                "claude", "-p", prompt, "--output-format", "stream-json", "--verbose",
                "--permission-mode", "bypassPermissions",
            ] + flags
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
        let enumerator = FileManager.default.enumerator(atPath: box.projectFolder)
        var files: [String] = []
        while let next = enumerator?.nextObject() as? String {
            if next.hasSuffix(".jsonl") { files.append(box.projectFolder + "/" + next) }
        }
        return files.sorted()
    }

    /// Stops the model and the box's server at once (synchronous, so a `defer` in the last test of
    /// a run still stops them before the process exits); the connection then fails and is dropped.
    func stop() {
        box.remove()
    }
}

enum OracleFailure: Error {
    case notAnObject(String)
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

    static func text(
        _ text: String, thinking: String? = nil, usage: [String: Int]? = nil,
        delay: Double = 0, chunks: Int = 1, chunkDelay: Double = 0
    ) -> [String: Any] {
        var blocks: [[String: Any]] = []
        if let thinking { blocks.append(["type": "thinking", "thinking": thinking]) }
        blocks.append(["type": "text", "text": text, "chunks": chunks])
        var turn: [String: Any] = ["blocks": blocks, "delay": delay, "chunk_delay": chunkDelay]
        if let usage { turn["usage"] = usage }
        return turn
    }
}
