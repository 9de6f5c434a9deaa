import Foundation
import SSHClient

/// The box a test works on: a folder of the test's own — its workspace root and its Claude data
/// folder — in the home of this machine, of the shared server of one kind, or of a server of its
/// own; on a server of its own, optionally with the real Claude Code CLI talking to a scripted
/// model, as on a configured box.
///
/// The box starts with an empty `.claude/projects` (Claude Code set up, not used yet) and no
/// workspace root. The box is this machine, so a test sets up and checks the box's files with local file calls,
/// whichever host runs the commands. ``remove()`` stops what the box started and removes its
/// folders (on a shared server, only the test's own).
package final class TestBox: @unchecked Sendable {
    /// Where the box is: this machine or the shared server of a kind (for a box with a server of
    /// its own, the place of that kind; ``withHost(_:)`` uses the box's own server).
    package let place: ScriptPlace
    private let placeServer: TestSSHServer?
    /// Whether the box is a server of its own (whose home is the box) rather than a folder in a
    /// shared home.
    package let ownsServer: Bool
    private let claudeModel: ScriptedModelServer?
    /// The box's folder (a local path): a folder of its own in a shared home, or the home of a
    /// server of its own.
    package let root: String
    /// The local side's home for `rws` runs (its `~/.ssh`, `~/.config/rws`, `~/.cache/rws`).
    package let localHome: String
    /// A sessions cache file of the box's own, on the local side (not created).
    package let cacheFile: URL

    /// A folder of the test's own in the home of `place`: this machine, or a shared server.
    package init(place: ScriptPlace) throws {
        self.place = place
        placeServer = try place.serverKind.map { _ in try place.server() }
        ownsServer = false
        claudeModel = nil
        root = try place.home() + "/box-\(UUID().uuidString.prefix(8))"
        (localHome, cacheFile) = try Self.localFolders()
        try FileManager.default.createDirectory(atPath: claudeProjects, withIntermediateDirectories: true)
    }

    /// A folder of the test's own on the shared server of `kind`.
    package convenience init(_ kind: ServerKind = .default) throws {
        try self.init(place: ScriptPlace(kind))
    }

    /// A server of its own of `kind`, whose home is the box: a test that needs the box's
    /// defaults (`~/workspace`, `~/.claude`), the server's processes or the Claude Code CLI.
    package convenience init(ownServer kind: ServerKind) throws {
        try self.init(kind, server: try TestSSHServer(kind), model: nil)
    }

    /// `server`, made by the test (a forced command, a limit of its own), as a box of its own:
    /// ``remove()`` stops it.
    package convenience init(ownServer server: TestSSHServer) throws {
        try self.init(server.kind, server: server, model: nil)
    }

    /// A server of its own of `kind` with the real Claude Code CLI on its PATH (in `~/.local/bin`)
    /// and the project folder made, the CLI talking to a model that follows `script`, made once
    /// the project's path is known. With `modelInSettings`, the model's environment is in
    /// `~/.claude/settings.json`, as on a configured box; without, a test passes it itself.
    package convenience init(
        _ kind: ServerKind = .default, modelInSettings: Bool = true, claude script: (_ project: String) -> [[String: Any]]
    ) throws {
        let server = try TestSSHServer(kind)
        do {
            try ClaudeCodeCLI.install(on: server)
            let model = try ScriptedModelServer(turns: script(server.remoteHome + "/workspace/app"))
            try self.init(kind, server: server, model: model)
        } catch {
            server.stop()
            throw error
        }
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        if modelInSettings {
            try JSONSerialization.data(withJSONObject: ["env": ClaudeCodeCLI.environment(for: self.model)])
                .write(to: URL(fileURLWithPath: claudeDirectory + "/settings.json"))
        }
    }

    /// A box with the Claude Code CLI whose model plays `turns`.
    package convenience init(_ kind: ServerKind = .default, modelInSettings: Bool = true, claude turns: [[String: Any]]) throws {
        try self.init(kind, modelInSettings: modelInSettings) { _ in turns }
    }

    private init(_ kind: ServerKind, server: TestSSHServer, model: ScriptedModelServer?) throws {
        place = ScriptPlace(kind)
        placeServer = server
        ownsServer = true
        claudeModel = model
        root = server.remoteHome
        (localHome, cacheFile) = try Self.localFolders()
        try FileManager.default.createDirectory(atPath: claudeProjects, withIntermediateDirectories: true)
    }

    private static func localFolders() throws -> (home: String, cache: URL) {
        let name = "rws-box-\(UUID().uuidString.prefix(8))"
        let local = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: local.appendingPathComponent("home"), withIntermediateDirectories: true)
        return (local.appendingPathComponent("home").path, local.appendingPathComponent("cache/sessions.cache"))
    }

    /// The box's server; only for a box on a server (a test of the wire).
    package var server: TestSSHServer {
        guard let placeServer else { preconditionFailure("a box on this machine has no server: this test needs a server place") }
        return placeServer
    }

    /// The scripted model Claude Code talks to; only for a box made with `claude:`.
    package var model: ScriptedModelServer {
        guard let claudeModel else { preconditionFailure("this box has no Claude Code: make it with TestBox(claude:)") }
        return claudeModel
    }

    /// `root/workspace`: the workspace root (the default one on a server of the box's own).
    package var workspaceRoot: String { root + "/workspace" }
    /// `workspaceRoot/app`: the project a Claude Code box works in.
    package var project: String { workspaceRoot + "/app" }
    /// `root/.claude`: the Claude data folder (the default one on a server of the box's own).
    package var claudeDirectory: String { root + "/.claude" }
    /// `claudeDirectory/projects`: where Claude Code keeps session files, a folder per project.
    package var claudeProjects: String { claudeDirectory + "/projects" }

    /// The flags that point `rws` at this box: its server, workspace root and Claude data folder.
    package var rwsFlags: [String] { server.rwsFlags + ["--workspace-root", workspaceRoot, "--claude-dir", claudeDirectory] }

    /// Runs the `rws` binary with `arguments` (flags included) and the box's local home.
    package func rwsBinary(_ arguments: [String]) async throws -> RWSBinary.Outcome {
        try await RWSBinary.run(arguments, home: localHome)
    }

    /// Runs `body` with a host on the box: a `LocalShell` for this machine, or a fresh connection
    /// to the box's server, closed whether `body` returned or threw.
    package func withHost<T>(_ body: (any ScriptHost) async throws -> T) async throws -> T {
        guard let placeServer else { return try await place.withHost(body) }
        return try await placeServer.withConnection { try await body($0) }
    }

    /// Whether anything (a file, a folder, a dangling link) is at `path`.
    package func exists(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)) != nil
    }

    /// The workspace root's entries, hidden ones included, sorted.
    package func workspaceEntries() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: workspaceRoot)) ?? []).sorted()
    }

    /// Every path below the box's folder, relative to it, sorted.
    package func tree() throws -> [String] {
        (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).sorted()
    }

    /// Writes a session file of `lines` (one record each) as `<claudeProjects>/<folder>/<id>.jsonl`.
    @discardableResult
    package func writeSession(_ id: String, folder: String = "-home-dev-proj", lines: [String]) throws -> String {
        let directory = claudeProjects + "/" + folder
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + id + ".jsonl"
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Appends `lines` to the file at `path`, as a writer adding records does.
    package static func append(_ lines: [String], to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(lines.map { $0 + "\n" }.joined().utf8))
    }

    /// Claude Code's state on a box someone used — onboarding done, `project` trusted, the test
    /// key accepted — written as `<folder>/.claude.json`: the home's (by default), or the folder a
    /// `CLAUDE_CONFIG_DIR` names.
    package func finishClaudeOnboarding(trusting project: String, in folder: String? = nil) throws {
        let state: [String: Any] = [
            "hasCompletedOnboarding": true, "theme": "dark", "customApiKeyResponses": ["approved": ["sk-test"], "rejected": [String]()],
            "projects": [project: ["hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true]],
        ]
        try JSONSerialization.data(withJSONObject: state).write(to: URL(fileURLWithPath: (folder ?? root) + "/.claude.json"))
    }

    /// Stops the model and a server of the box's own, and removes the box's folders. Synchronous,
    /// so a `defer` in the last test of a run still stops them before the process exits.
    package func remove() {
        claudeModel?.stop()
        if ownsServer { placeServer?.stop() } else { try? FileManager.default.removeItem(atPath: root) }
        try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: localHome).deletingLastPathComponent().path)
    }
}
