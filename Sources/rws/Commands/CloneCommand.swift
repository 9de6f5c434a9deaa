import ArgumentParser
import Foundation
import RemoteWorkspace

struct CloneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clone",
        abstract: "Clone a git repository into a new project on the box, showing progress.",
        discussion: """
            git runs on the box and never waits on a prompt: missing credentials or an unknown host key of the git server fail at \
            once with the cause. The clone goes to a hidden temporary directory and is renamed into place only when it succeeded; \
            Ctrl+C, a failure, or no progress for --stall-timeout removes it.

            URL: https://host/path, ssh://[user@]host[:port]/path or user@host:path; file:// and paths on the box only with \
            --allow-local. The name defaults to the URL's last component without .git.

            Progress goes to stderr: one line redrawn in place on a terminal, one line per finished phase otherwise.

            Examples:
              rws clone --host box https://github.com/me/app.git
              rws clone --host box git@github.com:me/app.git --branch dev --depth 1
              rws clone --host box --allow-local /srv/git/tool.git
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: "The repository to clone.")
    var url: String

    @Option(name: .long, help: "The project's name (default: derived from the URL).")
    var name: String?

    @Option(name: .long, help: "Branch or tag to check out.")
    var branch: String?

    @Option(name: .long, help: "Shallow clone with this many commits.")
    var depth: Int?

    @Flag(name: .long, help: "Allow file:// URLs and paths on the box.")
    var allowLocal = false

    @Option(name: .long, help: ArgumentHelp("Stop when git prints nothing for this long (default 60s).", valueName: "duration"))
    var stallTimeout: DurationArgument?

    @Flag(name: .long, help: "Print the project as JSON when done (progress still goes to stderr).")
    var json = false

    func run() async throws {
        try await runReportingErrors(json: json) {
            let options = CloneOptions(allowLocal: allowLocal, stallTimeout: stallTimeout?.duration ?? .seconds(60))
            let (url, name, branch, depth) = (url, name, branch, depth)
            let project = try await connection.withConnection { ssh in
                let manager = ProjectManager(connection: ssh, locations: workspace.locations())
                let view = CloneProgressView()
                let clone = Task {
                    try await manager.cloneProject(from: url, name: name, branch: branch, depth: depth, options: options) { view.show($0) }
                }
                let ending = EndingSignal()
                let interrupt = ending.handle { clone.cancel() }
                defer { interrupt.remove() }
                do {
                    defer { view.finish() }
                    return try await clone.value
                } catch {
                    throw ending.reporting(error)
                }
            }
            Terminal.out(json ? try JSONValueEncoder.text(of: project) : "cloned into \(project.path)\n")
            return 0
        }
    }
}
