import ArgumentParser
import Foundation
import RemoteWorkspace

struct RemoveSessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm-session",
        abstract: "Delete a session on the box: its file and its <id>/ folder, nothing else.",
        discussion: """
            Removes <project>/<id>.jsonl and <project>/<id>/ (subagent transcripts, tool results). Asks first on a terminal; \
            --yes skips the question (needed when stdin is not a terminal).

            Examples:
              rws rm-session --host box 0b1c
              rws rm-session --host box 0b1c --yes
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: "A session id or unique id prefix.")
    var session: String

    @Flag(name: .long, help: "Do not ask for confirmation.")
    var yes = false

    func run() async throws {
        try await runReportingErrors {
            guard yes || Terminal.isTTY(STDIN_FILENO) else {
                throw CLIError.usage("deleting needs confirmation: add --yes when not at a terminal")
            }
            let removed = try await RemoteSessionsSupport.with(connection, workspace) { sessions in
                let target = try await sessions.findSession(session)
                guard yes || Self.confirm(target) else { return nil as RemoteSessionListing? }
                return try await sessions.deleteSession(target.id)
            }
            guard let removed else {
                Terminal.err("kept \(session)\n")
                return RWSExitCode.failure
            }
            Terminal.out("deleted \(removed.id.safeLine) (\(removed.summary.title?.safeLine ?? "untitled"))\n")
            return 0
        }
    }

    private static func confirm(_ target: RemoteSessionListing) -> Bool {
        Terminal.err("delete \(target.id.safeLine) \"\(target.summary.title?.safeLine ?? "untitled")\" and its subagent files? [y/N] ")
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
        return answer == "y" || answer == "yes"
    }
}
