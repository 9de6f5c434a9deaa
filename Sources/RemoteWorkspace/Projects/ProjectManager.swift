import SSHClient
import SessionHistory

/// Creates, clones, lists and deletes projects on the box.
///
/// A project is a directory in ``WorkspaceLocations/workspaceRoot`` plus its Claude Code history
/// in a project folder under one of ``WorkspaceLocations/claudeDirectories``. Every name, path and
/// address reaching the box is validated first and quoted with `ShellQuoting`.
///
/// ```swift
/// let projects = ProjectManager(connection: connection, locations: WorkspaceLocations())
/// let app = try await projects.cloneProject(from: "https://github.com/me/app.git") { event in
///     if case .progress(let step) = event { print(step.phase, step.percent ?? 0) }
/// }
/// for project in try await projects.listProjects() { print(project.name, project.sessionCount) }
/// ```
public struct ProjectManager: Sendable {
    /// Where commands run: the box behind an SSH connection, or this machine (tests).
    package let host: any ScriptHost
    /// The connection commands run on; nil for projects on this machine.
    public var connection: SSHConnection? { host as? SSHConnection }
    /// Where projects and history live on the box.
    public let locations: WorkspaceLocations

    /// A manager for the projects under `locations` on the box behind `connection`.
    public init(connection: SSHConnection, locations: WorkspaceLocations = WorkspaceLocations()) {
        self.init(host: connection, locations: locations)
    }

    /// A manager for the projects under `locations` wherever `host` runs scripts.
    package init(host: any ScriptHost, locations: WorkspaceLocations = WorkspaceLocations()) {
        self.host = host
        self.locations = locations
    }

    /// Every project: the directories of the workspace root and the Claude Code project folders,
    /// joined by real path (the folders' `cwd`, never their decoded names). Gathered with one
    /// remote command. Workspace projects come first, then history-only ones, each by name.
    public func listProjects() async throws -> [Project] {
        let result = try await ProjectScanScript.script.run(on: host, ProjectScanScript.arguments(for: locations), timeout: nil) {
            ProjectError.remoteCommandFailed(operation: "listing projects", status: $0.status.description, detail: $0.lastErrorLine)
        }
        return try ProjectScan(output: result.stdout).projects()
    }

    /// Makes a new project directory and registers it with Claude Code.
    ///
    /// - Parameters:
    ///   - name: Checked with ``ProjectName/validateNew(_:)``.
    ///   - gitInit: Run `git init` in it.
    /// - Throws: ``ProjectError/destinationExists(path:)`` when anything is at that path (never
    ///   overwritten), ``ProjectError/invalidName(_:reason:)``, ``ProjectError/gitMissing``.
    public func createProject(name: String, gitInit: Bool = false) async throws -> Project {
        try ProjectName.validateNew(name)
        let failure = {
            ProjectScriptExit.error(
                for: $0, operation: "creating \(name)", destination: locations.configuredPath(of: name), root: locations.workspaceRoot)
        }
        let result = try await ProjectScripts.create.run(
            on: host, [.path(locations.workspaceRoot), .word(name), .word(gitInit ? "1" : "0")], timeout: nil, failure: failure)
        let fields = result.stdout.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        guard fields.count >= 2, !fields[0].isEmpty else { throw failure(result) }
        return try await registered(name: name, path: fields[0], branch: fields[1].isEmpty ? nil : fields[1], isGitRepository: gitInit)
    }

    /// A fresh project description with its newly registered history folder.
    func registered(name: String, path: String, branch: String?, isGitRepository: Bool) async throws -> Project {
        let folder = try await registerHistoryFolder(forPath: path)
        return Project(
            name: name, path: path, isInWorkspace: true, directoryExists: true, isGitRepository: isGitRepository,
            gitBranch: branch, isDirty: isGitRepository ? false : nil, historyFolders: [folder])
    }

    /// Makes the Claude Code project folder for the directory at `path` (its real path on the box),
    /// named by `ProjectFolderName/encode(_:)`, in the first Claude data directory that exists
    /// (else the first configured). Returns the folder's real path; an existing folder is kept.
    public func registerHistoryFolder(forPath path: String) async throws -> String {
        let arguments = [.word(ProjectFolderName.encode(path))] + locations.claudeDirectories.map(RemoteScript.Argument.path)
        let failure = { (result: CommandResult) in
            ProjectError.remoteCommandFailed(
                operation: "registering \(path) with Claude Code", status: result.status.description, detail: result.lastErrorLine)
        }
        let result = try await ProjectScripts.registerHistoryFolder.run(on: host, arguments, timeout: nil, failure: failure)
        guard let folder = result.stdout.split(separator: 0).first else { throw failure(result) }
        return String(decoding: folder, as: UTF8.self)
    }
}

extension WorkspaceLocations {
    /// A project's path as configured (root not resolved), for messages.
    func configuredPath(of name: String) -> String {
        (workspaceRoot.hasSuffix("/") ? workspaceRoot : workspaceRoot + "/") + name
    }
}
