import Foundation
import RemoteWorkspace

/// The JSON shapes of `rws status --json` and `rws diff --json` (documented in docs/review.md).
enum ReviewJSON {
    /// A path: its text, and its exact bytes in base64 when they are not UTF-8.
    struct Path: Encodable {
        let path: String
        let pathBase64: String?

        init(_ path: GitPath) {
            self.path = path.description
            pathBase64 = path.isValidUTF8 ? nil : Data(path.bytes).base64EncodedString()
        }
    }

    struct Status: Encodable {
        let branch: String?
        let headCommit: String?
        let upstream: String?
        let ahead: Int?
        let behind: Int?
        let clean: Bool
        let entries: [Entry]

        init(_ status: GitStatus) {
            branch = status.branch
            headCommit = status.headCommit
            upstream = status.upstream
            ahead = status.ahead
            behind = status.behind
            clean = status.isClean
            entries = status.entries.map(Entry.init)
        }
    }

    struct Entry: Encodable {
        let kind: GitStatusEntry.Kind
        let path: Path
        let originalPath: Path?
        let staged: GitStatusEntry.Change?
        let unstaged: GitStatusEntry.Change?
        let score: Int?
        let submodule: SubmoduleChanges?
        let conflict: String?
        let modes: [String: String]?

        init(_ entry: GitStatusEntry) {
            kind = entry.kind
            path = Path(entry.path)
            originalPath = entry.originalPath.map(Path.init)
            staged = entry.staged
            unstaged = entry.unstaged
            score = entry.score
            submodule = entry.isSubmodule ? entry.submoduleChanges : nil
            conflict = entry.conflict
            modes = entry.modes.map { ["head": $0.head, "index": $0.index, "worktree": $0.worktree] }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(path.path, forKey: .path)
            try container.encodeIfPresent(path.pathBase64, forKey: .pathBase64)
            try container.encodeIfPresent(originalPath?.path, forKey: .originalPath)
            try container.encodeIfPresent(staged, forKey: .staged)
            try container.encodeIfPresent(unstaged, forKey: .unstaged)
            try container.encodeIfPresent(score, forKey: .score)
            try container.encodeIfPresent(submodule, forKey: .submodule)
            try container.encodeIfPresent(conflict, forKey: .conflict)
            try container.encodeIfPresent(modes, forKey: .modes)
        }

        enum Keys: String, CodingKey { case kind, path, pathBase64, originalPath, staged, unstaged, score, submodule, conflict, modes }
    }

    struct Diff: Encodable {
        let files: [File]
        let added: Int
        let deleted: Int
        let cut: Bool

        init(_ diff: GitDiff, stat: Bool) {
            files = diff.files.map { File($0, stat: stat) }
            added = diff.added
            deleted = diff.deleted
            cut = diff.isCut && !stat
        }
    }

    struct File: Encodable {
        let path: String
        let pathBase64: String?
        let originalPath: String?
        let change: GitFileDiff.Change
        let similarity: Int?
        let oldMode: String?
        let newMode: String?
        let binary: Bool
        let tooLarge: Bool
        let submodule: Bool
        let added: Int
        let deleted: Int
        let omittedLines: Int
        let hunks: [Hunk]?

        init(_ file: GitFileDiff, stat: Bool) {
            let path = Path(file.path)
            self.path = path.path
            pathBase64 = path.pathBase64
            originalPath = file.originalPath?.description
            change = file.change
            similarity = file.similarity
            oldMode = file.oldMode
            newMode = file.newMode
            binary = file.isBinary
            tooLarge = file.isTooLarge
            submodule = file.isSubmodule
            added = file.added
            deleted = file.deleted
            omittedLines = file.omittedLines
            hunks = stat ? nil : file.hunks.map(Hunk.init)
        }
    }

    struct Hunk: Encodable {
        let oldStart: Int
        let oldCount: Int
        let newStart: Int
        let newCount: Int
        let section: String
        let lines: [Line]

        init(_ hunk: GitHunk) {
            oldStart = hunk.oldStart
            oldCount = hunk.oldCount
            newStart = hunk.newStart
            newCount = hunk.newCount
            section = hunk.section
            lines = hunk.lines.map(Line.init)
        }
    }

    struct Line: Encodable {
        let kind: GitDiffLine.Kind
        let text: String
        let oldLine: Int?
        let newLine: Int?

        init(_ line: GitDiffLine) {
            kind = line.kind
            text = line.text
            oldLine = line.oldLine
            newLine = line.newLine
        }
    }
}
