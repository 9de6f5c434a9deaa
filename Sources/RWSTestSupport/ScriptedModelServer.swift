import Foundation
import Platform

/// A scripted Anthropic Messages API server on 127.0.0.1 (`scripts/lib/model_server.py`) that
/// the real Claude Code CLI talks to in tests. Each conversation request gets the next turn of
/// the script; every request body is logged for the test to inspect.
public final class ScriptedModelServer: @unchecked Sendable {
    /// The port on 127.0.0.1.
    public let port: Int
    /// The folder holding the script, port file and request log.
    public let directory: String
    private let process: SpawnedProcess

    /// The server program in the repository.
    public static var programPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/lib/model_server.py").path
    }

    /// Starts the server with `turns` (objects in the script format of `model_server.py`) and
    /// waits until it listens.
    public init(turns: [[String: Any]]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rws-model-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let script = try JSONSerialization.data(withJSONObject: ["turns": turns])
        try script.write(to: URL(fileURLWithPath: directory + "/script.json"))
        guard let python = Self.python() else {
            throw TestServerError.missingPrerequisite(path: "python3", installCommand: "sudo apt-get install -y python3")
        }
        let portFile = directory + "/port"
        process = try SpawnedProcess(
            python,
            [
                Self.programPath, "--script", directory + "/script.json",
                "--port-file", portFile, "--log", directory + "/requests.jsonl",
            ])
        let deadline = Date().addingTimeInterval(TimeInterval(StartWait.seconds))
        var found: Int?
        while found == nil, Date() < deadline {
            found = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { Int($0) }
            if found == nil {
                guard process.isRunning else { throw TestServerError.startFailed("model_server.py exited at start") }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        guard let found else {
            process.stop()
            throw TestServerError.startFailed("model_server.py did not listen within \(StartWait.seconds) s")
        }
        port = found
    }

    /// The request bodies received so far that had tools (the conversation's own requests), in order.
    public func conversationRequests() -> [[String: Any]] {
        allRequests().compactMap { $0["body"] as? [String: Any] }.filter { ($0["tools"] as? [Any])?.isEmpty == false }
    }

    /// Every request logged so far: `path` and `body`.
    public func allRequests() -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: directory + "/requests.jsonl", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Stops the server and removes its folder.
    public func stop() {
        process.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { process.stop() }

    private static func python() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
