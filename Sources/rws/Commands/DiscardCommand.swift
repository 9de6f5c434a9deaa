import ArgumentParser
import Foundation
import Platform
import RemoteWorkspace

/// `rws discard`: throw away changes to paths of a project on the box.
struct DiscardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discard",
        abstract: "Throw away the changes to paths of a project on the box (cannot be undone).",
        discussion: """
            Tracked files go back to the last commit, in the index and the work tree; untracked files are removed. PATHs are \
            taken literally, from the top of the repository; nothing outside it is touched. On a terminal rws asks first; \
            elsewhere --force is needed.

            Examples:
              rws discard --host box app src/scratch.swift notes.txt
              rws discard --host box app build.log --force
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: "A project name in the workspace root, or a path on the box (default: RWS_PROJECT).")
    var project: String?

    @Flag(name: .long, help: "Do not ask (needed when stdin is not a terminal).")
    var force = false

    @Argument(help: "Paths from the top of the repository.")
    var paths: [String]

    func run() async throws {
        try await runReportingErrors {
            if !force { try confirm() }
            try await ReviewSupport.with(connection, workspace, project: project) { try await $0.discard(paths.map(GitPath.init)) }
            Terminal.out("discarded the changes to \(paths.count) path\(paths.count == 1 ? "" : "s")\n")
            return 0
        }
    }

    private func confirm() throws {
        guard Terminal.isTTY(STDIN_FILENO) else {
            throw CLIError.usage("not a terminal, so rws cannot ask: pass --force to discard the changes to these paths")
        }
        Terminal.err(
            paths.map { "will discard: \($0.safeLine)\n" }.joined() + "Throw these changes away? This cannot be undone. [y/N] ")
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard answer == "y" || answer == "yes" else { throw CLIError.failed("nothing discarded", code: RWSExitCode.failure) }
    }
}
