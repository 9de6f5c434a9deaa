import ArgumentParser
import Foundation
import RemoteWorkspace

/// `rws commit`: commit what is staged in a project on the box.
struct CommitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "commit",
        abstract: "Commit what is staged in a project on the box.",
        discussion: """
            The message goes to git as given (on stdin, never through a shell). Nothing staged is an error (exit 1) that \
            says so. git's author is the box's git configuration. Prints the new commit's id.

            Examples:
              rws stage --host box app src/main.swift
              rws commit --host box app -m "Fix the parser"
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: "A project name in the workspace root, or a path on the box (default: RWS_PROJECT).")
    var project: String?

    @Option(name: [.short, .long], help: "The commit message.")
    var message: String

    func run() async throws {
        try await runReportingErrors {
            let id = try await ReviewSupport.with(connection, workspace, project: project) { try await $0.commit(message: message) }
            Terminal.out("committed \(id)\n")
            return 0
        }
    }
}
