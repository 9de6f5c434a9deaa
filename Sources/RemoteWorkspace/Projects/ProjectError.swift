import Foundation
import SessionHistory

/// Why a project operation failed, each case with what was wrong and what is allowed.
///
/// Connection failures are not wrapped: they reach the caller as `SSHError`.
public enum ProjectError: Error, Sendable, Equatable {
    /// The project name cannot be used; `reason` says which rule it broke.
    case invalidName(String, reason: String)
    /// The repository address cannot be used; `reason` says which rule it broke.
    case invalidURL(String, reason: String)
    /// The branch name cannot be used.
    case invalidBranch(String, reason: String)
    /// `depth` is below 1.
    case invalidDepth(Int)
    /// No project name can be derived from the address.
    case cannotDeriveName(url: String)
    /// Something already exists at the project's path; it is never overwritten.
    case destinationExists(path: String)
    /// Nothing can be made in the workspace root: the login may not write there (a read-only or
    /// immutable folder, or another user's).
    case workspaceNotWritable(root: String)
    /// The box's disk filled up while the project at `path` was made; nothing of it was kept.
    case noSpace(path: String)
    /// No project of that name exists in the workspace root.
    case projectNotFound(name: String, root: String)
    /// The path resolves outside the workspace root (or is the root itself), so it is not deleted.
    case outsideWorkspace(path: String, root: String)
    /// The workspace root would be removed, or is `/`; refused.
    case refusedRoot(path: String)
    /// git is not installed on the box.
    case gitMissing
    /// The repository does not exist or is not readable at that address.
    case repositoryNotFound(url: String, detail: String)
    /// The server wants credentials, and rws never lets git prompt for them.
    case authenticationRequired(url: String, detail: String)
    /// The git server's SSH host key is not in the box's known_hosts, and git may not ask.
    case hostKeyUnknown(url: String, detail: String)
    /// The git server's host name does not resolve on the box.
    case hostNotFound(url: String, detail: String)
    /// The requested branch does not exist in the repository.
    case branchNotFound(branch: String, detail: String)
    /// The clone printed no progress for `after`; it was stopped and its directory removed.
    case stalled(url: String, after: Duration)
    /// The clone was cancelled; its directory was removed.
    case cancelled(url: String)
    /// The connection was lost while `operation` ran on the box; `boxState` says what the box may
    /// hold now and how to reconcile (running the same operation again does).
    case interrupted(operation: String, reason: String, boxState: String)
    /// git clone failed for another reason; `detail` is git's last message.
    case cloneFailed(url: String, status: String, detail: String)
    /// A remote command failed unexpectedly.
    case remoteCommandFailed(operation: String, status: String, detail: String)
}

extension ProjectError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .invalidName(let name, let reason):
            return "invalid project name \(Self.show(name)): \(reason)"
        case .invalidURL(let url, let reason):
            return "cannot clone \(Self.show(url)): \(reason)"
        case .invalidBranch(let branch, let reason):
            return "invalid branch \(Self.show(branch)): \(reason)"
        case .invalidDepth(let depth):
            return "invalid depth \(depth): give a number of commits of at least 1"
        case .cannotDeriveName(let url):
            return "cannot derive a project name from \(Self.show(url)); give one with --name"
        case .interrupted(let operation, let reason, let boxState):
            return "connection lost while \(operation) (\(reason)). \(boxState)"
        case .destinationExists(let path):
            return "destination exists: \(path) is already there and is never overwritten; choose another name"
        case .workspaceNotWritable(let root):
            return "cannot make a project in the workspace root \(root): the login may not write there (read-only, or not its "
                + "folder); make it writable for the login, or use another workspace root"
        case .noSpace(let path):
            return "no space left on the box for \(path): free some space on the box (df -h shows where) and try again; "
                + "nothing of it was kept"
        case .projectNotFound(let name, let root):
            return "no project named \(Self.show(name)) in \(root)"
        case .outsideWorkspace(let path, let root):
            return "\(path) resolves outside the workspace root \(root); refusing to delete it"
        case .refusedRoot(let path):
            return "refusing to delete the workspace root \(path)"
        case .gitMissing:
            return "git is not installed on the box; install it there first"
        default:
            return remoteDescription
        }
    }

    private var remoteDescription: String {
        switch self {
        case .repositoryNotFound(let url, let detail):
            return "repository not found: \(url) does not exist or is not readable (\(detail))"
        case .authenticationRequired(let url, let detail):
            return "authentication needed for \(url): set up a key or credential helper for git on the box (\(detail))"
        case .hostKeyUnknown(let url, let detail):
            return "host key unknown for \(url): add the git server's key to ~/.ssh/known_hosts on the box (\(detail))"
        case .hostNotFound(let url, let detail):
            return "host not found for \(url) (\(detail))"
        case .branchNotFound(let branch, let detail):
            return "branch \(Self.show(branch)) not found in the repository (\(detail))"
        case .stalled(let url, let after):
            return "clone of \(url) stalled: no progress for \(Self.seconds(after)); stopped and its directory removed"
        case .cancelled(let url):
            return "clone of \(url) was cancelled; its partial directory was removed"
        case .cloneFailed(let url, let status, let detail):
            return "git clone \(url) failed (\(status)): \(detail)"
        case .remoteCommandFailed(let operation, let status, let detail):
            return "\(operation) failed on the box (\(status)): \(detail)"
        default:
            return description
        }
    }

    public var errorDescription: String? { description }

    /// "2s", "0.5s".
    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? "\(Int(value))s" : "\(value)s"
    }

    /// A user-supplied value, quoted, with control characters shown visibly by the one rule for
    /// all output (`TerminalText`: C1 controls and bidirectional overrides included).
    static func show(_ value: String) -> String {
        "\"" + TerminalText.neutralize(value, keepingLineBreaks: false).replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
