/// The state of a repository's work tree, from `git status --porcelain=v2 -z --branch`.
public struct GitStatus: Sendable, Equatable {
    /// The checked-out branch; nil when HEAD is detached.
    public var branch: String?
    /// The commit HEAD points at; nil in a repository with no commit yet.
    public var headCommit: String?
    /// The upstream branch (`origin/main`), when one is set.
    public var upstream: String?
    /// Commits on the branch that the upstream does not have; nil without an upstream.
    public var ahead: Int?
    /// Commits on the upstream that the branch does not have; nil without an upstream.
    public var behind: Int?
    /// Every changed, conflicted or untracked path, in git's order.
    public var entries: [GitStatusEntry]

    /// A status with no changes.
    public init(
        branch: String? = nil, headCommit: String? = nil, upstream: String? = nil, ahead: Int? = nil, behind: Int? = nil,
        entries: [GitStatusEntry] = []
    ) {
        self.branch = branch
        self.headCommit = headCommit
        self.upstream = upstream
        self.ahead = ahead
        self.behind = behind
        self.entries = entries
    }

    /// Whether nothing is changed, conflicted or untracked.
    public var isClean: Bool { entries.isEmpty }
    /// Entries with a change in the index (what the next commit holds).
    public var staged: [GitStatusEntry] { entries.filter { $0.staged != nil } }
    /// Entries with a change in the work tree that is not staged.
    public var unstaged: [GitStatusEntry] { entries.filter { $0.unstaged != nil } }
    /// Files git does not track (and does not ignore).
    public var untracked: [GitStatusEntry] { entries.filter { $0.kind == .untracked } }
    /// Paths with a merge conflict.
    public var conflicted: [GitStatusEntry] { entries.filter { $0.kind == .conflicted } }
}

/// One path of a ``GitStatus``.
public struct GitStatusEntry: Sendable, Equatable {
    /// What kind of entry this is.
    public enum Kind: String, Sendable, Equatable, Codable {
        /// A tracked path with changes (`1` lines).
        case changed
        /// Renamed in the index or the work tree (`2` lines with `R`).
        case renamed
        /// Copied (`2` lines with `C`).
        case copied
        /// Unmerged: a merge conflict (`u` lines).
        case conflicted
        /// Not tracked (`?` lines).
        case untracked
    }

    /// What happened to a path on one side (index or work tree), as git's status letters say.
    public enum Change: String, Sendable, Equatable, Codable {
        case modified, typeChanged, added, deleted, renamed, copied, updatedButUnmerged

        init?(letter: UInt8) {
            switch letter {
            case UInt8(ascii: "M"): self = .modified
            case UInt8(ascii: "T"): self = .typeChanged
            case UInt8(ascii: "A"): self = .added
            case UInt8(ascii: "D"): self = .deleted
            case UInt8(ascii: "R"): self = .renamed
            case UInt8(ascii: "C"): self = .copied
            case UInt8(ascii: "U"): self = .updatedButUnmerged
            default: return nil
            }
        }
    }

    /// The kind of entry.
    public var kind: Kind
    /// The path (the new path of a rename or copy).
    public var path: GitPath
    /// The path it was renamed or copied from.
    public var originalPath: GitPath?
    /// The change staged in the index, relative to HEAD; nil when none.
    public var staged: Change?
    /// The change in the work tree, relative to the index; nil when none.
    public var unstaged: Change?
    /// The similarity score of a rename or copy, 0–100.
    public var score: Int?
    /// Whether the path is a submodule.
    public var isSubmodule: Bool
    /// For a submodule: what changed inside it (new commits, modified or untracked content).
    public var submoduleChanges: SubmoduleChanges?
    /// The file mode in HEAD, the index and the work tree (octal, `100644`); nil for untracked.
    public var modes: (head: String, index: String, worktree: String)?
    /// For a conflict: how each side changed it (`UU` both modified, `AA` both added, `DU`, ...).
    public var conflict: String?

    /// An entry; most fields are optional.
    public init(
        kind: Kind, path: GitPath, originalPath: GitPath? = nil, staged: Change? = nil, unstaged: Change? = nil, score: Int? = nil,
        isSubmodule: Bool = false, submoduleChanges: SubmoduleChanges? = nil, modes: (head: String, index: String, worktree: String)? = nil,
        conflict: String? = nil
    ) {
        self.kind = kind
        self.path = path
        self.originalPath = originalPath
        self.staged = staged
        self.unstaged = unstaged
        self.score = score
        self.isSubmodule = isSubmodule
        self.submoduleChanges = submoduleChanges
        self.modes = modes
        self.conflict = conflict
    }

    /// Entries are equal when every field is.
    public static func == (lhs: GitStatusEntry, rhs: GitStatusEntry) -> Bool {
        lhs.kind == rhs.kind && lhs.path == rhs.path && lhs.originalPath == rhs.originalPath && lhs.staged == rhs.staged
            && lhs.unstaged == rhs.unstaged && lhs.score == rhs.score && lhs.isSubmodule == rhs.isSubmodule
            && lhs.submoduleChanges == rhs.submoduleChanges && lhs.modes?.head == rhs.modes?.head
            && lhs.modes?.index == rhs.modes?.index && lhs.modes?.worktree == rhs.modes?.worktree && lhs.conflict == rhs.conflict
    }
}

/// What changed inside a submodule (porcelain v2's `S<c><m><u>` field).
public struct SubmoduleChanges: Sendable, Equatable, Codable {
    /// Its checked-out commit differs from the one recorded.
    public var commitChanged: Bool
    /// It has modified tracked files.
    public var hasModifications: Bool
    /// It has untracked files.
    public var hasUntrackedFiles: Bool

    /// The three flags.
    public init(commitChanged: Bool, hasModifications: Bool, hasUntrackedFiles: Bool) {
        self.commitChanged = commitChanged
        self.hasModifications = hasModifications
        self.hasUntrackedFiles = hasUntrackedFiles
    }
}
