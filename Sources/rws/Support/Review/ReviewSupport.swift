import ArgumentParser
import Foundation
import RemoteWorkspace
import SSHClient

/// What the review commands share: which directory on the box a PROJECT argument means, and
/// how their errors are reported.
enum ReviewSupport {
    /// The directory of `project`: a path (with `/` or a leading `~`) as given, else a project
    /// name in the workspace root; without one, `RWS_PROJECT`.
    static func directory(
        for project: String?, workspace: WorkspaceOptions, environment: [String: String] = ProcessEnvironment.current
    ) throws -> String {
        guard let project = project ?? environment["RWS_PROJECT"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw CLIError.usage("name a project (a name in the workspace root, or a path on the box), or set RWS_PROJECT")
        }
        if !(project.hasPrefix("~") || project.contains("/")) { try ProjectName.validateExisting(project) }
        return workspace.locations().directory(ofProject: project)
    }

    /// Runs `body` with a review of `project`.
    static func with<T>(
        _ connection: ConnectionOptions, _ workspace: WorkspaceOptions, project: String?, _ body: (ProjectReview) async throws -> T
    ) async throws -> T {
        let directory = try directory(for: project, workspace: workspace)
        return try await connection.withConnection { ssh in
            try await body(ProjectReview(connection: ssh, directory: directory))
        }
    }
}

extension ReviewError: ReportableError {
    var message: String { description }
    /// Bad input is a usage error (64); a project that is not there or not a repository 66; git
    /// missing on the box 69; credentials the box lacks 77; what git itself refused (nothing
    /// staged, a rejected push) 1, as git exits.
    var exitCode: Int32 {
        switch self {
        case .invalidRevision, .invalidPath: return ExitCode.validationFailure.rawValue
        case .directoryNotFound, .notARepository: return RWSExitCode.noInput
        case .gitMissing: return RWSExitCode.unavailable
        case .authenticationRequired: return RWSExitCode.noPermission
        case .malformedOutput: return RWSExitCode.software
        case .gitFailed, .nothingToCommit: return RWSExitCode.failure
        }
    }
}
