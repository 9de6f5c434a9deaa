import ArgumentParser
import Foundation
import RemoteWorkspace

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show what changed in a project's git repository on the box.",
        discussion: """
            The branch and its upstream (commits ahead and behind), then what is staged, what is not, merge conflicts and \
            untracked files, from one `git status` on the box. Names are shown exactly, with control characters made visible.

            PROJECT is a project name in the workspace root (app) or a path on the box (~/src/app); RWS_PROJECT is used \
            when it is left out.

            Examples:
              rws status --host box app
              rws status --host box ~/src/app --json
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: "A project name in the workspace root, or a path on the box (default: RWS_PROJECT).")
    var project: String?

    @Flag(name: .long, help: "Print JSON (see docs/review.md).")
    var json = false

    func run() async throws {
        try await runReportingErrors(json: json) {
            let status = try await ReviewSupport.with(connection, workspace, project: project) { try await $0.status() }
            Terminal.out(
                json ? try JSONValueEncoder.text(of: ReviewJSON.Status(status)) : ReviewText(colors: .forStandardOutput()).status(status))
            return 0
        }
    }
}
