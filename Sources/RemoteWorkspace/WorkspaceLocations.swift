import SSHClient

/// Where projects and Claude Code history live on the box.
///
/// Paths may start with `~/`, meaning the remote user's home; they are quoted with
/// `ShellQuoting/quotePath(_:)` whenever they reach a command line.
public struct WorkspaceLocations: Sendable, Equatable {
    /// The folder holding one directory per project. Default `~/workspace`.
    public var workspaceRoot: String
    /// Claude Code data roots, probed in order. Default `~/.claude` and `~/.config/claude`.
    public var claudeDirectories: [String]

    /// The defaults, or the given roots.
    public init(workspaceRoot: String = "~/workspace", claudeDirectories: [String] = ["~/.claude", "~/.config/claude"]) {
        self.workspaceRoot = workspaceRoot
        self.claudeDirectories = claudeDirectories
    }

    /// The directory on the box that a PROJECT argument means: a path (with `/` or a leading `~`)
    /// as given, else a project of that name in the workspace root.
    public func directory(ofProject project: String) -> String {
        if project.hasPrefix("~") || project.contains("/") { return project }
        return workspaceRoot.hasSuffix("/") ? workspaceRoot + project : workspaceRoot + "/" + project
    }

    /// The `projects` folders inside each Claude data root.
    public var claudeProjectFolders: [String] {
        claudeDirectories.map { $0.hasSuffix("/") ? $0 + "projects" : $0 + "/projects" }
    }
}
