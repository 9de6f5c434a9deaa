/// What a diff compares, in git's terms.
public enum GitDiffBase: Sendable, Equatable {
    /// The work tree against the index: what is not staged yet (untracked files count as new).
    case workTree
    /// The index against HEAD: what the next commit holds (`git diff --cached`).
    case staged
    /// The work tree against a commit, branch, tag or tree (`git diff REV`; untracked files count as new).
    case revision(String)
    /// The work tree against a ``GitSnapshot``: what changed since it was taken (during a
    /// conversation turn, say), untracked files included.
    case snapshot(GitSnapshot)
}

/// The whole work tree at one moment, tracked and untracked files, kept as a git tree object
/// (``ProjectReview/snapshot()``); compare with it through ``GitDiffBase/snapshot(_:)``.
public struct GitSnapshot: Sendable, Equatable, Hashable {
    /// The tree object's id.
    public let tree: String

    /// A snapshot from a tree id (one a previous ``ProjectReview/snapshot()`` returned).
    public init(tree: String) { self.tree = tree }
}

/// How much of a diff is sent back; what is cut is counted and reported.
public struct GitDiffLimits: Sendable, Equatable {
    /// Bytes of patch text per file; the rest of the file's patch is counted, not sent.
    public var bytesPerFile: Int
    /// Bytes of patch text in all; files after that are listed with their counts only.
    public var totalBytes: Int
    /// Work-tree files larger than this are not diffed at all (git would spend long on them):
    /// they are listed as ``GitFileDiff/isTooLarge``.
    public var largeFileBytes: Int

    /// Limits; the defaults suit a phone screen and a slow link.
    public init(bytesPerFile: Int = 512 << 10, totalBytes: Int = 8 << 20, largeFileBytes: Int = 10 << 20) {
        self.bytesPerFile = bytesPerFile
        self.totalBytes = totalBytes
        self.largeFileBytes = largeFileBytes
    }
}

/// A diff of a repository: one ``GitFileDiff`` per changed path.
public struct GitDiff: Sendable, Equatable {
    /// The files, in git's order.
    public var files: [GitFileDiff]
    /// Whether ``GitDiffLimits/totalBytes`` was reached: later files have counts but no hunks.
    public var isCut: Bool

    /// A diff.
    public init(files: [GitFileDiff], isCut: Bool = false) {
        self.files = files
        self.isCut = isCut
    }

    /// Lines added in all files (text files; binary ones count 0).
    public var added: Int { files.reduce(0) { $0 + $1.added } }
    /// Lines deleted in all files.
    public var deleted: Int { files.reduce(0) { $0 + $1.deleted } }
}

/// The changes to one path.
public struct GitFileDiff: Sendable, Equatable {
    /// What happened to the path.
    public enum Change: String, Sendable, Equatable, Codable {
        case added, deleted, modified, renamed, copied, conflicted
    }

    /// The path (the new one of a rename or copy).
    public var path: GitPath
    /// The old path of a rename or copy.
    public var originalPath: GitPath?
    /// What happened.
    public var change: Change
    /// Similarity of a rename or copy, 0–100.
    public var similarity: Int?
    /// The mode before (`100644`, `100755`, `120000` symlink, `160000` submodule); nil for an added file.
    public var oldMode: String?
    /// The mode after; nil for a deleted file.
    public var newMode: String?
    /// Whether git found the contents binary (no hunks then).
    public var isBinary: Bool
    /// Whether the work-tree file is larger than ``GitDiffLimits/largeFileBytes`` and was not diffed.
    public var isTooLarge: Bool
    /// Lines added (all of them, also those not sent).
    public var added: Int
    /// Lines deleted (all of them, also those not sent).
    public var deleted: Int
    /// The hunks that were sent.
    public var hunks: [GitHunk]
    /// Patch lines of this file that were not sent (over a limit).
    public var omittedLines: Int
    /// Patch bytes of this file that were not sent.
    public var omittedBytes: Int

    /// A file diff.
    public init(
        path: GitPath, originalPath: GitPath? = nil, change: Change, similarity: Int? = nil, oldMode: String? = nil,
        newMode: String? = nil, isBinary: Bool = false, isTooLarge: Bool = false, added: Int = 0, deleted: Int = 0,
        hunks: [GitHunk] = [], omittedLines: Int = 0, omittedBytes: Int = 0
    ) {
        self.path = path
        self.originalPath = originalPath
        self.change = change
        self.similarity = similarity
        self.oldMode = oldMode
        self.newMode = newMode
        self.isBinary = isBinary
        self.isTooLarge = isTooLarge
        self.added = added
        self.deleted = deleted
        self.hunks = hunks
        self.omittedLines = omittedLines
        self.omittedBytes = omittedBytes
    }

    /// Whether part of the patch was not sent.
    public var isCut: Bool { omittedLines > 0 }
    /// Whether only the mode changed (e.g. made executable).
    public var isModeChangeOnly: Bool { oldMode != nil && newMode != nil && oldMode != newMode && added == 0 && deleted == 0 && !isBinary }
    /// Whether the path is a submodule (mode 160000, or `Subproject commit` lines).
    public var isSubmodule: Bool {
        oldMode == "160000" || newMode == "160000"
            || (!hunks.isEmpty && hunks.allSatisfy { $0.lines.allSatisfy { $0.text.hasPrefix("Subproject commit ") } })
    }
}

/// One hunk: a run of changed lines with their context.
public struct GitHunk: Sendable, Equatable {
    /// First line of the range in the old file (1-based; 0 for an empty range).
    public var oldStart: Int
    /// Lines in the old range.
    public var oldCount: Int
    /// First line of the range in the new file.
    public var newStart: Int
    /// Lines in the new range.
    public var newCount: Int
    /// The text git puts after the range (often the enclosing function).
    public var section: String
    /// The lines.
    public var lines: [GitDiffLine]

    /// A hunk.
    public init(oldStart: Int, oldCount: Int, newStart: Int, newCount: Int, section: String = "", lines: [GitDiffLine] = []) {
        self.oldStart = oldStart
        self.oldCount = oldCount
        self.newStart = newStart
        self.newCount = newCount
        self.section = section
        self.lines = lines
    }
}

/// A line of a hunk with its line numbers.
public struct GitDiffLine: Sendable, Equatable {
    /// What the line is.
    public enum Kind: String, Sendable, Equatable, Codable {
        case context, added, deleted
        /// `\ No newline at end of file`, about the line before.
        case noNewlineAtEnd
    }

    /// What the line is.
    public var kind: Kind
    /// The text without its prefix and newline (bytes that are not UTF-8 shown as U+FFFD).
    public var text: String
    /// Its number in the old file (context and deleted lines).
    public var oldLine: Int?
    /// Its number in the new file (context and added lines).
    public var newLine: Int?

    /// A line.
    public init(kind: Kind, text: String, oldLine: Int? = nil, newLine: Int? = nil) {
        self.kind = kind
        self.text = text
        self.oldLine = oldLine
        self.newLine = newLine
    }
}
