import Foundation
import SSHClient

/// What changed in a repository on the box, and the acts of a review: stage, unstage, discard,
/// commit, push.
///
/// Every call is one remote command; paths travel NUL-safe and are taken byte for byte, and no
/// value is ever part of a script's text.
///
/// ```swift
/// let review = ProjectReview(connection: connection, directory: "~/workspace/app")
/// let status = try await review.status()
/// print(status.branch ?? "detached", status.ahead ?? 0, status.entries.count)
/// for file in try await review.diff().files { print(file.change, file.path, "+\(file.added) -\(file.deleted)") }
/// ```
public struct ProjectReview: Sendable {
    /// Where commands run: the box behind an SSH connection, or this machine (tests).
    package let host: any ScriptHost
    /// The connection commands run on; nil for a repository on this machine.
    public var connection: SSHConnection? { host as? SSHConnection }
    /// A directory inside the repository (a path on the box; `~/` is the remote home).
    public let directory: String

    /// The review of the repository that holds `directory`.
    public init(connection: SSHConnection, directory: String) {
        self.init(host: connection, directory: directory)
    }

    /// The review of the repository that holds `directory`, wherever `host` runs scripts.
    package init(host: any ScriptHost, directory: String) {
        self.host = host
        self.directory = directory
    }

    /// The branch, its upstream and every changed, conflicted or untracked path.
    public func status() async throws -> GitStatus {
        let result = try await run(ReviewScripts.status, [], operation: "reading git status")
        return try GitStatusParser.parse(result.stdout)
    }

    /// The changes between `base` and the work tree (or the index, for ``GitDiffBase/staged``),
    /// optionally only under `paths` (relative to the top of the repository).
    public func diff(
        _ base: GitDiffBase = .workTree, paths: [GitPath] = [], limits: GitDiffLimits = GitDiffLimits()
    ) async throws
        -> GitDiff
    {
        let (name, revision): (String, String)
        switch base {
        case .workTree: (name, revision) = ("worktree", "")
        case .staged: (name, revision) = ("staged", "")
        case .revision(let rev):
            try Self.validate(revision: rev)
            (name, revision) = ("rev", rev)
        case .snapshot(let snapshot):
            try Self.validate(revision: snapshot.tree)
            (name, revision) = ("rev", snapshot.tree)
        }
        let arguments: [RemoteScript.Argument] =
            [name, revision, String(limits.bytesPerFile), String(limits.totalBytes), String(limits.largeFileBytes)].map { .word($0) }
            + (try paths.map { .word(try Self.pathspec($0)) })
        let result = try await run(ReviewScripts.diff, arguments, operation: "reading the diff")
        return try GitDiffParser.parse(result.stdout)
    }

    /// The whole work tree now, to compare with later (``GitDiffBase/snapshot(_:)``): take one
    /// when a conversation turn starts, and the diff against it afterwards is what the turn
    /// changed. Nothing in the repository's index, branches or work tree changes.
    public func snapshot() async throws -> GitSnapshot {
        let result = try await run(ReviewScripts.snapshot, [], operation: "taking a snapshot of the work tree")
        let tree = result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard tree.count >= 40, tree.allSatisfy(\.isHexDigit) else {
            throw ReviewError.malformedOutput(step: "taking a snapshot of the work tree", reason: "no tree id")
        }
        return GitSnapshot(tree: tree)
    }

    /// Runs a review script in ``directory``; its declared failures become ``ReviewError``s.
    func run(
        _ script: RemoteScript, _ arguments: [RemoteScript.Argument], operation: String, input: [UInt8] = []
    )
        async throws -> CommandResult
    {
        try await script.run(on: host, [.path(directory)] + arguments, input: input, timeout: nil) {
            Self.error(for: $0.status, operation: operation, directory: directory, detail: $0.lastErrorLine)
        }
    }

    /// The error a review script's failing `status` stands for.
    static func error(for status: ExitStatus, operation: String, directory: String, detail: String) -> ReviewError {
        switch status.scriptExit(ReviewScriptExit.self) {
        case .directoryNotFound?: return .directoryNotFound(path: directory)
        case .notARepository?: return .notARepository(path: directory)
        case .gitMissing?: return .gitMissing
        case .nothingToCommit?: return .nothingToCommit(path: directory)
        case .outsideRepository?: return .invalidPath(detail, reason: "it is outside the repository")
        case .authenticationRequired?: return .authenticationRequired(remote: "the remote", detail: detail)
        case .gitFailed?, .failed?, .terminated?, nil:
            return .gitFailed(operation: operation, status: status.description, detail: detail)
        }
    }

    /// A revision git will not take for an option.
    static func validate(revision: String) throws {
        guard !revision.isEmpty else { throw ReviewError.invalidRevision(revision, reason: "it is empty") }
        guard !revision.hasPrefix("-") else {
            throw ReviewError.invalidRevision(revision, reason: "it starts with '-'; name a commit, branch or tag")
        }
        guard !revision.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw ReviewError.invalidRevision(revision, reason: "it holds control characters")
        }
    }

    /// A path as a literal pathspec from the top of the repository (`:(top,literal)`), so that
    /// `*`, `:` or a leading `-` in a name mean nothing to git.
    static func pathspec(_ path: GitPath) throws -> String {
        guard !path.bytes.isEmpty else { throw ReviewError.invalidPath("", reason: "it is empty") }
        guard path.isValidUTF8 else {
            throw ReviewError.invalidPath(path.description, reason: "it is not UTF-8; act on the whole repository or its folder")
        }
        return ":(top,literal)" + path.description
    }
}
