import ArgumentParser
import RemoteWorkspace

struct RenameCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename",
        abstract: "Give a session on the box a title, as Claude Code's /rename does.",
        discussion: """
            Appends one custom-title record to the session file in a single write (the file is never rewritten), so Claude Code's \
            own /resume picker shows the same title.

            Examples:
              rws rename --host box 0b1c "Fix the login bug"
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: "A session id or unique id prefix.")
    var session: String

    @Argument(help: "The new title.")
    var title: String

    func run() async throws {
        try await runReportingErrors {
            let renamed = try await RemoteSessionsSupport.with(connection, workspace) { try await $0.renameSession(session, title: title) }
            Terminal.out("renamed \(renamed.id)\n")
            return 0
        }
    }
}
