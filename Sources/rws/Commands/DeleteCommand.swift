import ArgumentParser
import Foundation
import RemoteWorkspace

struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a project directory from the box, and optionally its Claude Code history.",
        discussion: """
            Only what is inside the workspace root is removed: the real path is checked on the box, a project that is a symbolic \
            link loses only the link (its target is never touched), and the root itself is never removed. --with-history also \
            removes the Claude Code project folders whose sessions recorded the project's path.

            rws first shows what it would remove. On a terminal it asks for confirmation; elsewhere it refuses unless --yes is \
            given. --dry-run only shows.

            Examples:
              rws delete --host box old-app
              rws delete --host box old-app --with-history --yes
              rws delete --host box old-app --with-history --dry-run
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: "The project's name.")
    var name: String

    @Flag(name: .long, help: "Also remove its Claude Code history.")
    var withHistory = false

    @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
    var yes = false

    @Flag(name: .long, help: "Show what would be removed; remove nothing.")
    var dryRun = false

    @Flag(name: .long, help: "Print the report as JSON.")
    var json = false

    func run() async throws {
        try await runReportingErrors(json: json) {
            try ProjectName.validateExisting(name)  // before connecting: a usage error
            let report = try await connection.withConnection { ssh in
                let manager = ProjectManager(connection: ssh, locations: workspace.locations())
                let plan = try await manager.deleteProject(name: name, includingHistory: withHistory, dryRun: true)
                if dryRun { return plan }
                if !yes { try Self.confirm(plan) }
                return try await manager.deleteProject(name: name, includingHistory: withHistory)
            }
            Terminal.out(try Self.render(report, json: json))
            return 0
        }
    }

    private static func confirm(_ plan: ProjectDeletion) throws {
        guard Terminal.isTTY(STDIN_FILENO) else {
            throw CLIError.usage("not a terminal, so rws cannot ask: pass --yes to delete \(plan.name), or --dry-run to see what would go")
        }
        Terminal.err(
            plan.items.map { "will remove \($0.kind.rawValue): \($0.path.safeLine)\n" }.joined() + "Delete \(plan.name.safeLine)? [y/N] ")
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard answer == "y" || answer == "yes" else { throw CLIError.failed("not deleted", code: RWSExitCode.failure) }
    }

    private static func render(_ report: ProjectDeletion, json: Bool) throws -> String {
        if json { return try JSONValueEncoder.text(of: report) }
        let verb = report.dryRun ? "would remove" : "removed"
        return report.items.map { "\(verb) \($0.kind.rawValue): \($0.path.safeLine)\n" }.joined()
    }
}
