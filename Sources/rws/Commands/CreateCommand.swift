import ArgumentParser
import RemoteWorkspace

struct CreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Make a new, empty project directory on the box and register it with Claude Code.",
        discussion: """
            NAME: 1 to 100 letters, digits, '.', '_' or '-', starting with a letter or digit. An existing directory of that name \
            is an error; nothing is ever overwritten. The project is registered in Claude Code's projects folder so its sessions \
            land where rws finds them.

            Examples:
              rws create --host box notes
              rws create --host box api --git-init
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: "The project's name.")
    var name: String

    @Flag(name: .long, help: "Run git init in the new directory.")
    var gitInit = false

    @Flag(name: .long, help: "Print the project as JSON.")
    var json = false

    func run() async throws {
        try await runReportingErrors(json: json) {
            try ProjectName.validateNew(name)  // before connecting: a usage error
            let project = try await connection.withConnection { ssh in
                try await ProjectManager(connection: ssh, locations: workspace.locations()).createProject(name: name, gitInit: gitInit)
            }
            Terminal.out(json ? try JSONValueEncoder.text(of: project) : "created \(project.path)\n")
            return 0
        }
    }
}
