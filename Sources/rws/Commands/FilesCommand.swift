import ArgumentParser
import Foundation
import RemoteWorkspace

struct FilesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "files",
        abstract: "Find a project's files by fuzzy query, for @ references.",
        discussion: """
            QUERY's characters must appear in the path in order (ASCII case ignored, spaces skipped); paths where they start \
            path segments, the file name or words, and where they run together, come first (as in fzf). PROJECT is a project \
            name in the workspace root or a path on the box (with / or ~); without it, the remote home.

            In a git repository the files are those of `git ls-files -co --exclude-standard` (tracked and untracked, ignored \
            ones left out); elsewhere a find that skips .git, node_modules, .build, target, dist, __pycache__ and the like.

            Output: one path per line, best first, the matched characters in bold on a terminal. --json prints an array of \
            {path, score, positions}: positions are byte offsets into the path's bytes; a path that is not UTF-8 also has \
            pathBase64 with its exact bytes. Exit status 0 (also when nothing matches), 64 for bad usage, 1 when the \
            directory is missing or listing fails, 255 when the connection failed.

            Examples:
              rws files --host box app ffind
              rws files --host box '~/src/tool' readme --limit 5
              rws files --host box app main --json
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Flag(name: .long, help: "Print JSON instead of lines.")
    var json = false

    @Option(name: .long, help: "How many paths to show at most (default 20).")
    var limit = 20

    // A project or a path on the box: no local file completion.
    @Argument(help: "[PROJECT] QUERY: a project name or remote path (optional), then the query.", completion: .default)
    var words: [String] = []

    func run() async throws {
        try await runReportingErrors(json: json) {
            guard (1...2).contains(words.count) else {
                throw CLIError.usage("give a query, optionally after a project: rws files [PROJECT] QUERY")
            }
            guard limit > 0 else { throw CLIError.usage("--limit must be a positive number, not \(limit)") }
            let locations = workspace.locations()
            let directory = words.count == 2 ? locations.directory(ofProject: words[0]) : "~"
            let query = words[words.count - 1]
            let matches = try await connection.withConnection { ssh in
                try await FileFinder(connection: ssh).find(query, in: directory, limit: limit)
            }
            if json {
                Terminal.out(try JSONValueEncoder.text(of: matches.map(FileMatchJSON.init)))
            } else {
                let bold = Terminal.isTTY(1)
                Terminal.out(matches.map { Self.line($0, bold: bold) + "\n" }.joined())
            }
            return 0
        }
    }

    /// The path, safe for a terminal, with the matched bytes in bold when `bold`.
    static func line(_ match: FileMatch, bold: Bool) -> String {
        guard bold else { return match.path.safeLine }
        let marked = Set(match.positions)
        var out = ""
        var start = 0
        var inMatch = false
        for index in 0...match.pathBytes.count {
            let isMatch = index < match.pathBytes.count && marked.contains(index)
            guard index == match.pathBytes.count || isMatch != inMatch else { continue }
            let piece = String(decoding: match.pathBytes[start..<index], as: UTF8.self).safeLine
            out += inMatch ? "\u{1B}[1m" + piece + "\u{1B}[0m" : piece
            (start, inMatch) = (index, isMatch)
        }
        return out
    }
}

/// One match in `rws files --json`.
struct FileMatchJSON: Encodable {
    let path: String
    let pathBase64: String?
    let score: Int
    let positions: [Int]

    init(_ match: FileMatch) {
        path = match.path
        pathBase64 = Array(match.path.utf8) == match.pathBytes ? nil : Data(match.pathBytes).base64EncodedString()
        score = match.score
        positions = match.positions
    }
}
