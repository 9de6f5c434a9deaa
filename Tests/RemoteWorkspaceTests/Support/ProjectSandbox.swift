import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient

/// A fresh folder in the home of one place (this machine, or the shared test server of one
/// kind) for one test: its own workspace root and Claude data directory, so tests running in
/// parallel never see each other's projects.
struct ProjectSandbox {
    let place: ScriptPlace
    private let placeServer: TestSSHServer?
    /// The sandbox folder (absolute).
    let directory: String

    init(place: ScriptPlace) throws {
        self.place = place
        placeServer = try place.serverKind.map { _ in try place.server() }
        directory = try place.home() + "/projects-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    init(_ kind: ServerKind = .default) throws {
        try self.init(place: ScriptPlace(kind))
    }

    /// The shared server; only for a server place.
    var server: TestSSHServer {
        guard let placeServer else { preconditionFailure("a local sandbox has no server: this test needs a server place") }
        return placeServer
    }

    var workspaceRoot: String { directory + "/workspace" }
    var claudeDirectory: String { directory + "/claude" }
    var claudeProjects: String { claudeDirectory + "/projects" }
    var locations: WorkspaceLocations { WorkspaceLocations(workspaceRoot: workspaceRoot, claudeDirectories: [claudeDirectory]) }

    /// The flags that point `rws` at this sandbox.
    var rwsFlags: [String] { server.rwsFlags + ["--workspace-root", workspaceRoot, "--claude-dir", claudeDirectory] }

    /// Runs `body` with a manager on this place's host (a fresh connection, closed before returning).
    func withManager<T>(_ body: (ProjectManager) async throws -> T) async throws -> T {
        try await place.withHost { host in try await body(ProjectManager(host: host, locations: locations)) }
    }

    func exists(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)) != nil
    }

    /// Entries of the workspace root, hidden ones included.
    func workspaceEntries() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: workspaceRoot)) ?? []).sorted()
    }

    /// Writes a session file with a `cwd` into the Claude project folder `folder`.
    func writeSession(folder: String, cwd: String, id: String = UUID().uuidString.lowercased()) throws {
        let dir = claudeProjects + "/" + folder
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let cwdJSON = String(decoding: try JSONSerialization.data(withJSONObject: [cwd], options: [.withoutEscapingSlashes]), as: UTF8.self)
        let line =
            #"{"type":"user","uuid":"u1","sessionId":"\#(id)","cwd":\#(cwdJSON.dropFirst().dropLast()),"#
            + #""message":{"role":"user","content":"hi"}}"#
        try (line + "\n").write(toFile: dir + "/\(id).jsonl", atomically: true, encoding: .utf8)
    }
}
