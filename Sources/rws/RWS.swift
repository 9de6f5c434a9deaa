import ArgumentParser
import Foundation
import Platform
import SSHConfig

/// The root only parses: its subcommands run (``run(_:)`` awaits the async ones). It is a plain
/// `ParsableCommand` because ArgumentParser's debug build walks an async root's whole command tree
/// for async completions on every parse, a third of each in-process test run's parse time.
@main
struct RWS: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rws",
        abstract: "Work on a remote box over SSH: run commands, open a shell, manage projects and Claude Code history.",
        discussion: """
            The box needs nothing but sshd, git and a POSIX shell. Every command that connects takes --host [USER@]HOST[:PORT] or \
            a Host name from ~/.ssh/config (or RWS_HOST).

            Examples:
              rws exec --host me@box.example.com -- uname -a
              rws exec --host box --timeout 30s -- make test
              rws shell --host box
              rws sessions --host box
              rws history --host box 0b1c --follow
              rws ls --host box --long projects
              rws history ~/.claude/projects/-home-me-app/1234.jsonl --format markdown
            """,
        version: versionLine,
        groupedSubcommands: [
            CommandGroup(
                name: "Connection",
                subcommands: [ExecCommand.self, ShellCommand.self, ForwardCommand.self, PortsCommand.self, ConfigCommand.self]),
            CommandGroup(name: "Projects", subcommands: [ProjectsCommand.self, CreateCommand.self, CloneCommand.self, DeleteCommand.self]),
            CommandGroup(
                name: "Sessions",
                subcommands: [
                    SessionsCommand.self, HistoryCommand.self, ExportCommand.self, RenameCommand.self, RemoveSessionCommand.self,
                    SearchCommand.self, AskCommand.self, ClaudeCommand.self, WatchCommand.self, HooksCommand.self,
                    RecordTypesCommand.self,
                ]),
            CommandGroup(
                name: "Review",
                subcommands: [
                    StatusCommand.self, DiffCommand.self, StageCommand.self, UnstageCommand.self, DiscardCommand.self, CommitCommand.self,
                    PushCommand.self,
                ]),
            CommandGroup(
                name: "Files", subcommands: [ListCommand.self, CatCommand.self, GetCommand.self, PutCommand.self, FilesCommand.self]),
        ]
    )

    /// What `rws --version` prints: `rws 0.2.0 (commit 1a2b3c4d5e6f)`, the commit's first 12 hex
    /// digits; just `rws 0.2.0` when rws was not built from a git checkout (a source tarball).
    static let versionLine = "rws \(RWSVersion.number)" + (gitCommit.map { " (commit \($0.prefix(12)))" } ?? "")

    /// Runs the command line and exits with its code (`@main` picks this over ArgumentParser's sync `main()`).
    static func main() async {
        if let refusal = DescriptorFloor.refusal() {
            Terminal.err("rws: \(refusal)\n")
            Foundation.exit(RWSExitCode.failure)
        }
        DescriptorReserve.hold()
        Foundation.exit(await run(Array(CommandLine.arguments.dropFirst())))
    }

    /// ArgumentParser's `main` without exiting: parses `arguments`, runs the command and returns its
    /// exit code; errors and help are written through ``Terminal`` (so `Terminal.capture` catches
    /// them in-process). A command line asking for `--json` gets a parse error as the same JSON
    /// object as every other error (``printJSONError(_:code:)``), not as text.
    static func run(_ arguments: [String]) async -> Int32 {
        if let unknown = UnknownCommand.find(in: arguments, root: RWS.self) {
            let code = ExitCode.validationFailure.rawValue
            if arguments.contains("--json") {
                printJSONError(unknown.description, code: code)
            } else {
                Terminal.err("rws: \(unknown.description.safeText)\n")
            }
            return code
        }
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            return ExitCode.success.rawValue
        } catch {
            let code = exitCode(for: error)
            // After `--` the words are the remote command's, not rws's.
            if code != .success, !(error is ExitCode), arguments.prefix(while: { $0 != "--" }).contains("--json") {
                printJSONError(message(for: error), code: code.rawValue)
                return code.rawValue
            }
            // As ArgumentParser's `exit(withError:)`: help and version on stdout, errors on stderr.
            let text = fullMessage(for: error)
            // An error may quote what the box said (a name, a remote command's stderr): shown visibly.
            if !text.isEmpty { code == .success ? Terminal.out(text + "\n") : Terminal.err(text.safeText + "\n") }
            return code.rawValue
        }
    }
}
