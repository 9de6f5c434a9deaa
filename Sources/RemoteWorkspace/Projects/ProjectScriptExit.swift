import SSHClient

/// Exit statuses the project scripts use to say why they stopped; git itself exits 1, 128 or 129.
enum ProjectScriptExit {
    static let destinationExists: Int32 = 201
    static let rootUnavailable: Int32 = 202
    static let gitMissing: Int32 = 203
    static let renameFailed: Int32 = 204
    static let notFound: Int32 = 210
    static let refusedRoot: Int32 = 212
    static let removeFailed: Int32 = 213
    static let outsideWorkspace: Int32 = 215

    /// The `sh` line that makes sure git is there.
    static let requireGit = "command -v git >/dev/null 2>&1 || exit \(gitMissing)\n"

    /// The last line of a command's stderr, for error messages.
    static func lastLine(_ result: CommandResult) -> String {
        result.stderrText.split(whereSeparator: \.isNewline).last.map(String.init) ?? "no message"
    }

    /// The error for a status the scripts share, else a generic one for `operation`.
    static func error(for result: CommandResult, operation: String, destination: String) -> ProjectError {
        switch result.status {
        case .exited(destinationExists): return .destinationExists(path: destination)
        case .exited(gitMissing): return .gitMissing
        default: return .remoteCommandFailed(operation: operation, status: result.status.description, detail: lastLine(result))
        }
    }
}
