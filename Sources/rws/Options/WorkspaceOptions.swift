import ArgumentParser
import Foundation
import RemoteWorkspace

/// Where projects and history live on the box, for the commands that manage them.
/// Both are paths on the box, so they carry no local file completion.
struct WorkspaceOptions: ParsableArguments {
    @Option(
        name: .long, help: ArgumentHelp("Folder of projects on the box (default ~/workspace; env RWS_WORKSPACE_ROOT).", valueName: "path"))
    var workspaceRoot: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Claude Code data folder on the box; repeat for several (default ~/.claude and ~/.config/claude; env RWS_CLAUDE_DIR).",
            valueName: "path"))
    var claudeDir: [String] = []

    /// The locations: flags, else environment, else defaults.
    func locations(environment: [String: String] = ProcessEnvironment.current) -> WorkspaceLocations {
        var locations = WorkspaceLocations()
        if let root = workspaceRoot ?? environment["RWS_WORKSPACE_ROOT"], !root.isEmpty { locations.workspaceRoot = root }
        if !claudeDir.isEmpty {
            locations.claudeDirectories = claudeDir
        } else if let dirs = environment["RWS_CLAUDE_DIR"], !dirs.isEmpty {
            locations.claudeDirectories = dirs.split(separator: ":").map(String.init)
        }
        return locations
    }
}
