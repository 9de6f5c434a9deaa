import ArgumentParser
import Foundation
import RemoteWorkspace

/// `rws stage` and `rws unstage`: paths in and out of a project's git index on the box.
struct StageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stage",
        abstract: "Stage paths of a project on the box for the next commit (git add).",
        discussion: """
            Changes, new files and deletions alike. PATHs are taken literally, from the top of the repository (as \
            `rws status` shows them): no globs, nothing outside the repository. See what is staged with `rws diff --staged`.

            Examples:
              rws stage --host box app src/main.swift README.md
              rws stage --host box app -- -odd-name.txt
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: "A project name in the workspace root, or a path on the box (default: RWS_PROJECT).")
    var project: String?

    @Argument(help: "Paths from the top of the repository.")
    var paths: [String]

    func run() async throws {
        try await runReportingErrors {
            try await ReviewSupport.with(connection, workspace, project: project) { try await $0.stage(paths.map(GitPath.init)) }
            Terminal.out("staged \(paths.count) path\(paths.count == 1 ? "" : "s")\n")
            return 0
        }
    }
}

struct UnstageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unstage",
        abstract: "Take paths of a project on the box out of the next commit; their changes stay in the work tree.",
        discussion: """
            The index goes back to the last commit for these paths (git reset); nothing in the work tree changes. PATHs are \
            taken literally, from the top of the repository.

            Examples:
              rws unstage --host box app src/main.swift
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: "A project name in the workspace root, or a path on the box (default: RWS_PROJECT).")
    var project: String?

    @Argument(help: "Paths from the top of the repository.")
    var paths: [String]

    func run() async throws {
        try await runReportingErrors {
            try await ReviewSupport.with(connection, workspace, project: project) { try await $0.unstage(paths.map(GitPath.init)) }
            Terminal.out("unstaged \(paths.count) path\(paths.count == 1 ? "" : "s")\n")
            return 0
        }
    }
}
