/// Why reading or acting on a project's git state failed, each case saying what to do.
///
/// Connection failures are not wrapped: they reach the caller as `SSHError`.
public enum ReviewError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The directory does not exist on the box (or cannot be entered).
    case directoryNotFound(path: String)
    /// The directory is not inside a git repository.
    case notARepository(path: String)
    /// git is not installed on the box.
    case gitMissing
    /// The revision cannot be used (it starts with `-`, is empty, or git does not know it).
    case invalidRevision(String, reason: String)
    /// A path given to act on is outside the repository or cannot be used.
    case invalidPath(String, reason: String)
    /// git refused or failed; `detail` is its last line of error output.
    case gitFailed(operation: String, status: String, detail: String)
    /// The box's answer was not what the script writes; a bug in rws or a very unusual git.
    case malformedOutput(step: String, reason: String)
    /// The remote asks for credentials (push, fetch), which rws never lets git prompt for.
    case authenticationRequired(remote: String, detail: String)
    /// There is nothing staged to commit.
    case nothingToCommit(path: String)

    /// One line: what went wrong and what to do.
    public var description: String {
        switch self {
        case .directoryNotFound(let path):
            return "\(path): no such directory on the box; check the project name or path (rws projects lists them)"
        case .notARepository(let path):
            return "\(path) is not a git repository; run 'git init' there, or name a project that is one"
        case .gitMissing:
            return "git is not installed on the box; install it there (e.g. apt-get install git)"
        case .invalidRevision(let revision, let reason):
            return "revision '\(revision)' cannot be used: \(reason)"
        case .invalidPath(let path, let reason):
            return "path '\(path)' cannot be used: \(reason)"
        case .gitFailed(let operation, let status, let detail):
            return "\(operation) failed (\(status)): \(detail)"
        case .malformedOutput(let step, let reason):
            return "\(step): the box answered in an unexpected form (\(reason)); please report this with -vv output"
        case .authenticationRequired(let remote, let detail):
            return
                "\(remote) asks for credentials, and git on the box has none it may use without asking (\(detail)); "
                + "set up an SSH key or a credential helper on the box"
        case .nothingToCommit(let path):
            return "nothing is staged in \(path); stage changes first (rws stage PROJECT PATH...)"
        }
    }
}
