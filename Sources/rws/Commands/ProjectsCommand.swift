import ArgumentParser
import Foundation
import RemoteWorkspace

struct ProjectsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "projects",
        abstract: "List the projects on the box: workspace directories and Claude Code history, joined.",
        discussion: """
            One remote command gathers every directory of the workspace root (default ~/workspace) and every Claude Code project \
            folder (~/.claude/projects, ~/.config/claude/projects). History is joined to a directory by the path its sessions \
            record, never by decoding the folder name. Projects with history but no directory in the root are listed after the \
            others.

            Columns: name, git branch (* when there are uncommitted changes), sessions, last activity, path ("missing" when the \
            directory is gone).

            Examples:
              rws projects --host box
              rws projects --host box --json
              rws projects --host box --workspace-root ~/src --claude-dir ~/.claude
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Flag(name: .long, help: "Print JSON instead of a table.")
    var json = false

    func run() async throws {
        try await runReportingErrors(json: json) {
            let projects = try await connection.withConnection { ssh in
                try await ProjectManager(connection: ssh, locations: workspace.locations()).listProjects()
            }
            Terminal.out(json ? try JSONValueEncoder.text(of: projects) : ProjectTable.text(projects))
            return 0
        }
    }
}

/// How projects look on a terminal and in JSON.
enum ProjectTable {
    static func text(_ projects: [Project]) -> String {
        guard !projects.isEmpty else { return "no projects\n" }
        let width = min(40, projects.map(\.name.safeLine.count).max() ?? 0)
        let formatter = ISO8601DateFormatter()
        return projects.map { project in
            let shownName = project.name.safeLine
            let name = shownName.padding(toLength: max(width, shownName.count), withPad: " ", startingAt: 0)
            let branch = ((project.gitBranch ?? "-").safeLine + (project.isDirty == true ? "*" : "")).padding(
                toLength: 16,
                withPad: " ", startingAt: 0)
            let sessions = String(project.sessionCount).padding(toLength: 4, withPad: " ", startingAt: 0)
            let when =
                project.lastActivity.map { String(formatter.string(from: $0).prefix(16)).replacingOccurrences(of: "T", with: " ") }
                ?? "-".padding(toLength: 16, withPad: " ", startingAt: 0)
            let path = project.directoryExists ? project.path.safeLine : "\(project.path.safeLine) (missing)"
            return "\(name)  \(branch) \(sessions) \(when)  \(path)\n"
        }.joined()
    }
}
