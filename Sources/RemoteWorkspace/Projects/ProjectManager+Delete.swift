import SSHClient

extension ProjectManager {
    /// Deletes a project directory from the workspace root, and optionally its Claude Code history.
    ///
    /// Only what is inside the workspace root goes: the entry's real path is resolved on the box
    /// and must be exactly `<real root>/<name>`; an entry that is a symbolic link is removed as a
    /// link, never followed; the root itself is never removed. History folders are the ones
    /// ``listProjects()`` joins to the project, each checked to sit directly in a Claude projects
    /// folder. A name with no workspace directory but history (the directory was removed before)
    /// has its history removed when `includingHistory` is set.
    ///
    /// - Parameters:
    ///   - name: Checked with ``ProjectName/validateExisting(_:)``; `""`, `.`, `..` are the root and refused.
    ///   - includingHistory: Also remove its Claude Code project folders.
    ///   - dryRun: Check and report, remove nothing.
    /// - Returns: What was removed (or would be).
    /// - Throws: ``ProjectError/projectNotFound(name:root:)``, ``ProjectError/outsideWorkspace(path:root:)``,
    ///   ``ProjectError/refusedRoot(path:)``, ``ProjectError/invalidName(_:reason:)``.
    public func deleteProject(name: String, includingHistory: Bool = false, dryRun: Bool = false) async throws -> ProjectDeletion {
        if name.isEmpty || name == "." || name == ".." { throw ProjectError.refusedRoot(path: locations.workspaceRoot) }
        try ProjectName.validateExisting(name)
        var entryName: String? = name
        var folders: [String] = []
        if includingHistory {
            let projects = try await listProjects()
            if let project = projects.first(where: { $0.isInWorkspace && $0.name == name }) {
                folders = project.historyFolders
            } else if let project = projects.first(where: { !$0.isInWorkspace && $0.name == name }) {
                entryName = nil
                folders = project.historyFolders
            }
        }
        let arguments = ProjectDeletionScript.arguments(locations: locations, name: entryName, historyFolders: folders, dryRun: dryRun)
        let result: CommandResult
        do {
            result = try await ProjectDeletionScript.script.result(on: host, arguments, timeout: nil)
        } catch SSHError.connectionLost(let reason) {
            throw ProjectError.interrupted(
                operation: "deleting \(name)", reason: reason,
                boxState: "The project may be as it was, partly removed or removed: the removal goes on on the box without us. "
                    + "Run the same delete again: it removes what is left\(includingHistory ? ", history folders included" : "").")
        }
        let report = ProjectDeletionScript.items(from: result.stdout)
        if result.status.isSuccess { return ProjectDeletion(name: name, dryRun: dryRun, items: report.removed) }
        switch result.status.scriptExit(ProjectScriptExit.self) {
        case .notFound?:
            throw ProjectError.projectNotFound(name: name, root: locations.workspaceRoot)
        case .refusedRoot?:
            throw ProjectError.refusedRoot(path: report.refused ?? locations.workspaceRoot)
        case .outsideWorkspace?:
            throw ProjectError.outsideWorkspace(path: report.refused ?? name, root: locations.workspaceRoot)
        default:
            throw ProjectError.remoteCommandFailed(
                operation: "deleting \(name)", status: result.status.description,
                detail: result.lastErrorLine)
        }
    }
}
