/// Why rws's hooks could not be installed, inspected or removed, or a watch could not go on.
public enum ClaudeHooksError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The settings file is not valid JSON: it was left untouched.
    case invalidSettings(path: String, reason: String)
    /// The settings file is JSON, but not in the shape Claude Code writes.
    case unexpectedSettings(path: String, reason: String)
    /// The settings file changed between reading and writing it (Claude Code or an editor wrote it).
    case changedMeanwhile(path: String)
    /// The project's directory does not exist on the box.
    case projectNotFound(path: String)
    /// The box's disk is full: the settings file (and the hook) are as they were.
    case noSpace(path: String)
    /// A remote step failed.
    case remoteCommandFailed(step: String, status: String, detail: String)
    /// rws's hook is not installed in this Claude Code data folder.
    case notInstalled(folder: String)
    /// A permission request was answered already (by another watcher or in Claude Code), or its
    /// session stopped waiting.
    case requestClosed(id: String)

    public var description: String {
        switch self {
        case .invalidSettings(let path, let reason):
            return "\(path) on the box is not valid JSON (\(reason)); it was left untouched: fix it, then run rws hooks install again"
        case .unexpectedSettings(let path, let reason):
            return "\(path) on the box is not a Claude Code settings file as rws knows it (\(reason)); it was left untouched"
        case .changedMeanwhile(let path):
            return "\(path) changed on the box while rws was editing it; nothing was written: run the command again"
        case .projectNotFound(let path):
            return "\(path) is not a directory on the box; check the project name or path"
        case .noSpace(let path):
            return "no space left on the box for \(path): free some space on the box (df -h shows where) and run the command "
                + "again; the settings are as they were"
        case .remoteCommandFailed(let step, let status, let detail):
            return detail.isEmpty ? "\(step) failed (\(status))" : "\(step) failed (\(status)): \(detail)"
        case .notInstalled(let folder):
            return "rws's hook is not installed on the box (no \(folder)/hook.sh): run rws hooks install first"
        case .requestClosed(let id):
            return "permission request \(id) is no longer waiting: it was answered already or its session moved on"
        }
    }
}
