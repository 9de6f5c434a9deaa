import SSHClient

/// Exit statuses the project scripts use to say why they stopped; git itself exits 1, 128 or 129.
enum ProjectScriptExit: Int32, RemoteScriptExit {
    /// `git init` failed (creation).
    case gitInitFailed = 1
    /// The clone was stopped by a signal; its temporary directory is removed.
    case cloneTerminated = 143
    case destinationExists = 201
    case rootUnavailable = 202
    case gitMissing = 203
    case renameFailed = 204
    case notFound = 210
    case refusedRoot = 212
    case removeFailed = 213
    case outsideWorkspace = 215
    /// Nothing could be made in the workspace root (it exists, and a new folder in it failed).
    case rootNotWritable = 216

    /// The error for a status the scripts share, else a generic one for `operation`.
    static func error(for result: CommandResult, operation: String, destination: String, root: String) -> ProjectError {
        switch result.status.scriptExit(Self.self) {
        case .destinationExists?: return .destinationExists(path: destination)
        case .rootNotWritable?: return .workspaceNotWritable(root: root)
        case .gitMissing?: return .gitMissing
        default: return .remoteCommandFailed(operation: operation, status: result.status.description, detail: result.lastErrorLine)
        }
    }
}
