import Foundation

/// A project: a directory in the workspace root, its Claude Code history, or both.
public struct Project: Sendable, Equatable, Codable {
    /// The directory's name in the workspace root; for history-only projects, the last component of the path.
    public var name: String
    /// Absolute path on the box: the workspace entry (root resolved), or the `cwd` the history records.
    public var path: String
    /// Whether the project is an entry of the workspace root.
    public var isInWorkspace: Bool
    /// Whether the directory exists on the box now.
    public var directoryExists: Bool
    /// Whether the workspace entry is a symbolic link.
    public var isSymbolicLink: Bool
    /// Whether the directory is the top of a git repository.
    public var isGitRepository: Bool
    /// The checked-out branch (or the short commit when detached); nil when not a repository.
    public var gitBranch: String?
    /// Whether `git status` shows changes; nil when not a repository.
    public var isDirty: Bool?
    /// Claude Code sessions (top-level `.jsonl` files, sidechain `agent-*` files excluded).
    public var sessionCount: Int
    /// When the newest session file was last written; nil without history.
    public var lastActivity: Date?
    /// The Claude Code project folders holding its history (absolute paths on the box).
    public var historyFolders: [String]

    /// Creates a project description.
    public init(
        name: String, path: String, isInWorkspace: Bool, directoryExists: Bool, isSymbolicLink: Bool = false,
        isGitRepository: Bool = false, gitBranch: String? = nil, isDirty: Bool? = nil, sessionCount: Int = 0,
        lastActivity: Date? = nil, historyFolders: [String] = []
    ) {
        self.name = name
        self.path = path
        self.isInWorkspace = isInWorkspace
        self.directoryExists = directoryExists
        self.isSymbolicLink = isSymbolicLink
        self.isGitRepository = isGitRepository
        self.gitBranch = gitBranch
        self.isDirty = isDirty
        self.sessionCount = sessionCount
        self.lastActivity = lastActivity
        self.historyFolders = historyFolders
    }
}
