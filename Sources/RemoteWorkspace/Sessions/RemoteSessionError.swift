/// Why a remote session operation failed, with what a person needs to act on it.
public enum RemoteSessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No session on the box has this id or id prefix.
    case sessionNotFound(id: String)
    /// The prefix matches several sessions; the candidates' full ids are listed.
    case ambiguousSessionId(prefix: String, candidates: [String])
    /// The id or project name holds characters that cannot name a session file or project folder.
    case invalidName(String, reason: String)
    /// A remote script failed: which step, its exit status and what it printed on stderr.
    case remoteCommandFailed(step: String, status: String, stderr: String)
    /// The remote script's output was not in the expected shape (cut off, or an unexpected userland).
    case malformedOutput(step: String, reason: String)
    /// The session file does not end with a complete line for a while: something is writing a
    /// line right now, and appending would mix the two.
    case sessionBeingWritten(path: String)
    /// The box's disk is full: the title could not be appended, and the session file is as it was.
    case noSpace(path: String)
    /// The title cannot be written as one atomic append.
    case invalidTitle(reason: String)
    /// The local cache of session listings (under ~/.cache/rws) could not be written.
    case cacheUnwritable(path: String, reason: String)
    /// A search text or expression that cannot be searched for (empty, or an expression the
    /// box's grep refuses, with what it said).
    case invalidSearch(String, reason: String)
    /// The connection was lost while `operation` ran on the box (`reason`: how the link went);
    /// `boxState` says what the session may be now and what to do (running the same again does).
    case interrupted(operation: String, reason: String, boxState: String)

    /// One line saying what failed.
    public var description: String {
        switch self {
        case .sessionNotFound(let id):
            return "no session \(id) on the box (see `rws sessions` for the ids)"
        case .ambiguousSessionId(let prefix, let candidates):
            return "session id prefix \(prefix) matches \(candidates.count) "
                + "sessions: \(candidates.prefix(5).joined(separator: ", ")); give more characters"
        case .invalidName(let name, let reason):
            return "\"\(name)\" cannot be used: \(reason)"
        case .remoteCommandFailed(let step, let status, let stderr):
            let detail = stderr.split(separator: "\n").first.map { ": \($0)" } ?? ""
            return "\(step) failed on the box (\(status))\(detail)"
        case .malformedOutput(let step, let reason):
            return "\(step): unexpected output from the box (\(reason)); the box needs a POSIX sh with find, stat -c, head -c and tail -c"
        case .noSpace(let path):
            return "no space left on the box for \(path): free some space on the box (df -h shows where) and try again; "
                + "the session is as it was"
        case .sessionBeingWritten(let path):
            return "\(path) is being written (it grew or ended mid-line for 3 s); nothing was changed: try again when the session is idle"
        case .invalidTitle(let reason):
            return "cannot use that title: \(reason)"
        case .cacheUnwritable(let path, let reason):
            return "cannot write the session listing cache \(path): \(reason); make that folder writable, "
                + "or set XDG_CACHE_HOME to a writable folder"
        case .invalidSearch(let query, let reason):
            return "cannot search for \"\(query)\": \(reason)"
        case .interrupted(let operation, let reason, let boxState):
            return "connection lost while \(operation) (\(reason)). \(boxState)"
        }
    }
}
