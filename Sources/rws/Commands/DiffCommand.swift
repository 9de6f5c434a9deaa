import ArgumentParser
import Foundation
import RemoteWorkspace

struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show the changes in a project's git repository on the box, file by file.",
        discussion: """
            By default: the work tree against the index, untracked files shown as new (what is not staged). --staged shows \
            what the next commit holds; --since REV the work tree against a commit, branch or tag. PATHs (from the top of the \
            repository, taken literally) narrow it down.

            Large changes stay quick: each file's patch is cut after --max-file-bytes and the whole after --max-bytes (the \
            counts stay complete, and the cut is said); work-tree files over --large-file-bytes are not diffed at all.

            Examples:
              rws diff --host box app
              rws diff --host box app --stat
              rws diff --host box app src/main.swift --staged
              rws diff --host box app --since HEAD~3 --json
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: "A project name in the workspace root, or a path on the box (default: RWS_PROJECT).")
    var project: String?

    @Argument(help: "Only these paths, relative to the top of the repository.")
    var paths: [String] = []

    @Flag(name: .long, help: "What is staged: the index against HEAD.")
    var staged = false

    @Option(name: .long, help: ArgumentHelp("The work tree against this commit, branch or tag.", valueName: "rev"))
    var since: String?

    @Flag(name: .long, help: "One line per file with its counts, no patch.")
    var stat = false

    @Flag(name: .long, help: "Print JSON (see docs/review.md).")
    var json = false

    @Option(name: .long, help: "Bytes of patch per file before it is cut.")
    var maxFileBytes = GitDiffLimits().bytesPerFile

    @Option(name: .long, help: "Bytes of patch in all before later files show counts only.")
    var maxBytes = GitDiffLimits().totalBytes

    @Option(name: .long, help: "Work-tree files larger than this are not diffed.")
    var largeFileBytes = GitDiffLimits().largeFileBytes

    func validate() throws {
        if staged && since != nil { throw ValidationError("--staged and --since compare different things: give one of them") }
        if maxFileBytes < 0 || maxBytes < 0 || largeFileBytes < 0 { throw ValidationError("limits are byte counts of 0 or more") }
    }

    func run() async throws {
        try await runReportingErrors(json: json) {
            let base: GitDiffBase = staged ? .staged : since.map(GitDiffBase.revision) ?? .workTree
            let limits =
                stat
                ? GitDiffLimits(bytesPerFile: 0, totalBytes: 0, largeFileBytes: largeFileBytes)
                : GitDiffLimits(bytesPerFile: maxFileBytes, totalBytes: maxBytes, largeFileBytes: largeFileBytes)
            let diff = try await ReviewSupport.with(connection, workspace, project: project) {
                try await $0.diff(base, paths: paths.map(GitPath.init), limits: limits)
            }
            let text = ReviewText(colors: .forStandardOutput())
            Terminal.out(
                json ? try JSONValueEncoder.text(of: ReviewJSON.Diff(diff, stat: stat)) : stat ? text.stat(diff) : text.patch(diff))
            return 0
        }
    }
}
