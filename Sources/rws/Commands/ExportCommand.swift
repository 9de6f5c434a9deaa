import ArgumentParser
import Foundation
import Platform
import RemoteWorkspace
import SSHClient
import SessionHistory

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a session as Markdown (or text or JSON), to a file or stdout.",
        discussion: """
            SESSION is a session id or unique id prefix on the box (or a local .jsonl file when no host is given). Subagent \
            transcripts and tool results are included; thinking with --thinking.

            Examples:
              rws export --host box 0b1c -o session.md
              rws export --host box 0b1c --format json -o session.json
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: "A session id or id prefix on the box, or a local session file (.jsonl).", completion: .file(extensions: ["jsonl"]))
    var session: String

    @Option(
        name: [.customShort("o"), .long], help: ArgumentHelp("Write to this file instead of stdout.", valueName: "file"),
        completion: .file())
    var output: String?

    @Option(name: .long, help: "markdown, text, or json.")
    var format: HistoryFormat = .markdown

    @Flag(name: .long, help: "Include the model's thinking.")
    var thinking = false

    func run() async throws {
        try await runReportingErrors {
            var options = RenderOptions(toolResultLineLimit: format == .text ? 20 : nil)
            options.includeThinking = thinking
            // Raw to a file or a pipe; a terminal gets control characters shown, never obeyed.
            options.neutralizesControlCharacters = output == nil && Terminal.isTTY(STDOUT_FILENO)
            let rendered: String
            if RemoteSessionsSupport.isRemote(session, connection: connection) {
                do {
                    rendered = try await RemoteSessionsSupport.with(connection, workspace) { sessions in
                        let load = SessionLoadOptions(retention: .conversation)
                        return try await sessions.load(try await sessions.findSession(session), options: load)
                            .render(format.exportFormat, options: options)
                    }
                } catch let lost as SSHError where lost.linkLossReason != nil {
                    // Only reads ran on the box, and nothing is written here before the whole session is in.
                    throw CLIError.failed(
                        "connection lost while loading session \(session) (\(lost.linkLossReason ?? "\(lost)")); "
                            + "nothing was written: run the same export again", code: RWSExitCode.connectionFailed)
                }
            } else {
                let file = try RemoteSessionsSupport.localSessionFile(session)
                rendered = try LocalSession.load(at: file, retention: .conversation)
                    .render(format.exportFormat, options: options)
            }
            guard let output else {
                Terminal.out(rendered)
                return 0
            }
            do {
                try Data(rendered.utf8).write(to: URL(fileURLWithPath: NSString(string: output).expandingTildeInPath), options: .atomic)
            } catch {
                let failure = SystemCallError("write", describing: error)
                if failure.code == ENOSPC || failure.code == EDQUOT {
                    throw CLIError.failed(
                        "no space left on this machine for \(output): free some space here (df -h shows where) and export again; "
                            + "nothing was written", code: RWSExitCode.failure)
                }
                let advice = failure.code == ENOENT ? "; its folder does not exist: create it or choose another path" : ""
                throw CLIError.failed("cannot write \(output): \(failure.reason)\(advice)", code: RWSExitCode.failure)
            }
            Terminal.err("wrote \(output) (\(rendered.utf8.count) bytes)\n")
            return 0
        }
    }
}
