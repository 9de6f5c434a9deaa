import ArgumentParser
import Foundation
import RemoteWorkspace

/// `rws push`: push a project's commits from the box.
struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Push a project's commits from the box (git push), with progress.",
        discussion: """
            Runs git push on the box with the box's credentials; with no REMOTE, the branch's upstream. git never waits \
            for a password: a remote that wants credentials the box does not have fails at once and says so (exit 77). \
            Progress as for clone: one line in place on a terminal, a line per finished phase elsewhere.

            Examples:
              rws push --host box app
              rws push --host box app origin main
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: "A project name in the workspace root, or a path on the box (default: RWS_PROJECT).")
    var project: String?

    @Argument(help: "The remote (default: the branch's upstream).")
    var remote: String?

    @Argument(help: "What to push (git refspecs; default: the current branch).")
    var refspecs: [String] = []

    func run() async throws {
        try await runReportingErrors {
            let view = CloneProgressView()
            try await ReviewSupport.with(connection, workspace, project: project) { review in
                defer { view.finish() }
                try await review.push(remote: remote, refspecs: refspecs) { view.show($0) }
            }
            Terminal.out("pushed\n")
            return 0
        }
    }
}
