import Foundation
import RemoteWorkspace
import SSHClient

/// What the review commands share: which directory on the box a PROJECT argument means, and
/// how their errors are reported.
enum ReviewSupport {
    /// The directory of `project`: a path (with `/` or a leading `~`) as given, else a project
    /// name in the workspace root; without one, `RWS_PROJECT`.
    static func directory(
        for project: String?, workspace: WorkspaceOptions, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> String {
        guard let project = project ?? environment["RWS_PROJECT"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw CLIError.usage("name a project (a name in the workspace root, or a path on the box), or set RWS_PROJECT")
        }
        if !(project.hasPrefix("~") || project.contains("/")) {
            do {
                try ProjectName.validateExisting(project)
            } catch {
                throw error.cliError
            }
        }
        return workspace.locations().directory(ofProject: project)
    }

    /// Runs `body` with a review of `project`, turning a ``ReviewError`` into the CLI's error.
    static func with<T>(
        _ connection: ConnectionOptions, _ workspace: WorkspaceOptions, project: String?, _ body: (ProjectReview) async throws -> T
    ) async throws -> T {
        let directory = try directory(for: project, workspace: workspace)
        return try await connection.withConnection { ssh in
            do {
                return try await body(ProjectReview(connection: ssh, directory: directory))
            } catch let error as ReviewError {
                throw error.cliError
            }
        }
    }
}

extension ReviewError {
    /// Bad input is a usage error (exit 64); anything else exits 1.
    var cliError: CLIError {
        switch self {
        case .invalidRevision, .invalidPath: return .usage(description)
        default: return .failed(description, code: RWSExitCode.failure)
        }
    }
}
