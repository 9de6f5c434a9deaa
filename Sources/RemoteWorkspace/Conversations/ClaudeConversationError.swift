/// Why a conversation with Claude Code on the box failed, with what a person needs to act on it.
public enum ClaudeConversationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Claude Code is not installed on the box (the program was not found on `PATH`).
    case claudeNotFound(executable: String)
    /// The project directory does not exist on the box.
    case directoryNotFound(String)
    /// Files given with a prompt do not exist on the box (paths as given, relative to `directory`).
    case filesNotFound([String], directory: String)
    /// Claude Code has no credentials on the box: someone has to run `claude` there and log in.
    case notLoggedIn(message: String)
    /// The Messages API refused the request (after Claude Code's own retries).
    case apiError(status: Int?, type: String?, message: String)
    /// A turn ended with an error that is not an API error.
    case turnFailed(subtype: String, message: String)
    /// Claude Code exited; its exit status and the end of its stderr.
    case processExited(status: String, stderr: String)
    /// Claude Code did not answer the `initialize` request in time; it was stopped.
    case startTimedOut(after: Duration)
    /// A value in the options cannot be used.
    case invalidOption(String)
    /// A prompt was sent while the previous turn was still running.
    case turnInProgress
    /// Claude Code answered a control request (interrupt, mode change…) with an error.
    case controlRequestFailed(subtype: String, message: String)
    /// The conversation was stopped with ``ClaudeConversation/stop()``.
    case stopped
    /// A local file attached to a prompt cannot be read or used.
    case attachmentUnreadable(path: String, reason: String)
    /// No detached conversation with this id runs on the box (it ended and its files were removed,
    /// or the id is wrong).
    case detachedNotFound(id: String)
    /// Another client attached to this detached conversation and took it over.
    case takenOver(id: String)
    /// The link to the box was lost and did not come back; the detached conversation goes on there.
    case detachedLinkLost(id: String, reason: String)
    /// ``ClaudeConversation/detach()`` left the conversation running on the box.
    case detached(id: String)
    /// The detached conversation ended on the box because no client was attached for its idle time.
    case endedIdle(id: String)
    /// The box cannot run a conversation detached (`setsid` is missing there).
    case detachUnsupported(reason: String)

    /// One line saying what failed.
    public var description: String {
        switch self {
        case .claudeNotFound(let executable):
            return "Claude Code (\(executable)) is not installed on the box; install it there "
                + "(https://docs.claude.com/en/docs/claude-code/setup)"
        case .directoryNotFound(let directory):
            return "the directory \(directory) does not exist on the box"
        case .filesNotFound(let files, let directory):
            let names = files.map { "\"\($0)\"" }.joined(separator: ", ")
            return (files.count == 1 ? "the file \(names) does not" : "the files \(names) do not") + " exist on the box (in \(directory))"
        case .notLoggedIn(let message):
            return "Claude Code is not logged in on the box (\(message)); run `claude` there once and log in"
        case .apiError(let status, let type, let message):
            let code = status.map { " \($0)" } ?? ""
            let kind = type.map { " \($0)" } ?? ""
            return "the API answered with an error\(code)\(kind): \(message)"
        case .turnFailed(let subtype, let message):
            return "the turn failed (\(subtype)): \(message)"
        case .processExited(let status, let stderr):
            let detail = stderr.split(separator: "\n").last.map { ": \($0)" } ?? ""
            return "Claude Code exited (\(status))\(detail)"
        case .startTimedOut(let after):
            return "Claude Code did not answer within \(after); it was stopped"
        case .invalidOption(let reason):
            return "invalid conversation option: \(reason)"
        case .turnInProgress:
            return "a turn is still running; wait for its result or interrupt it"
        case .controlRequestFailed(let subtype, let message):
            return "Claude Code refused \(subtype): \(message)"
        case .stopped:
            return "the conversation was stopped"
        case .attachmentUnreadable(let path, let reason):
            return "cannot attach \(path): \(reason)"
        case .detachedNotFound(let id):
            return "no detached conversation \(id) runs on the box (it ended, or the id is wrong); rws ask --list-detached shows them"
        case .takenOver(let id):
            return "another client attached to conversation \(id) and took it over"
        case .detachedLinkLost(let id, let reason):
            return "the link to the box was lost (\(reason)) and did not come back; Claude Code goes on there in conversation "
                + "\(id): rws ask --attach \(id) to see it, rws ask --stop \(id) to end it"
        case .detached(let id):
            return "detached from conversation \(id); it goes on on the box: rws ask --attach \(id)"
        case .endedIdle(let id):
            return "conversation \(id) ended on the box: no client was attached for its idle time"
        case .detachUnsupported(let reason):
            return "the box cannot keep a conversation running detached: \(reason)"
        }
    }
}
