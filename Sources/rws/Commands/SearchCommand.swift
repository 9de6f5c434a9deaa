import ArgumentParser
import Foundation
import RemoteWorkspace
import SessionHistory

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search every Claude Code conversation on the box for a text.",
        discussion: """
            One remote command (grep, then awk) looks through every session and subagent file; only a window of text around \
            each match comes back, so a search of gigabytes of history moves a few kilobytes. QUERY is found as a person \
            typed it, however the file stores it (JSON escapes, \\uXXXX), letters in either case, accented ones too. Only \
            what was said counts: prompts, answers, thinking, tool calls and their output — not ids, times, paths of the \
            session itself or JSON keys.

            --regex takes a POSIX extended regular expression instead, matched against the stored JSON text as it is \
            (escapes not decoded), ASCII letters in either case.

            Sessions are shown newest first, each with its id, last time, title and project, then each matching message: its \
            line in the file, who wrote it (user, assistant, tool_result, ...), its time and the match in context, highlighted \
            on a terminal. `rws history ID --at UUID` opens the conversation at a match (--json gives each match's uuid). \
            The newest --limit files with a match are read (default 50), 20 matching messages each; the output says when \
            more matched.

            --since takes a date (2026-11-01, 2026-11-01T09:30, UTC) or an age (90m, 12h, 3d): only sessions changed and \
            messages written since then. --local DIR searches a Claude Code projects folder on this machine instead \
            (~/.claude/projects), with the same results as on a box holding the same files.

            Exit status 0 when something matched, 1 when nothing did (as grep), 64 for bad usage or an expression grep \
            refuses, 255 when the connection failed.

            Examples:
              rws search --host box "flaky test"
              rws search --host box café --project app --since 7d
              rws search --host box --regex 'npm (test|run)' --json
              rws search --local ~/.claude/projects "rate limit"
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: "The text to find (or, with --regex, the expression).")
    var query: String

    @Option(name: .long, help: "Only this project: a workspace project name, a path on the box, or a project folder name.")
    var project: String?

    @Option(name: .long, help: ArgumentHelp("Only since this date (UTC) or age (12h, 3d).", valueName: "when"))
    var since: String?

    @Flag(name: .long, help: "QUERY is a POSIX extended regular expression over the stored text.")
    var regex = false

    @Option(name: .long, help: "Read at most this many files with a match, newest first (default 50).")
    var limit = 50

    @Option(name: .long, help: ArgumentHelp("A Claude Code projects folder on this machine.", valueName: "dir"), completion: .directory)
    var local: String?

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        try await runReportingErrors(json: json) {
            guard limit > 0 else { throw CLIError.usage("--limit must be a positive number, not \(limit)") }
            let start = try since.map { try Self.time(of: $0, now: Int(Date().timeIntervalSince1970)) }
            let search = SessionSearchQuery(
                regex ? .regex(query) : .text(query), project: project, since: start, limits: SessionSearchLimits(files: limit))
            let found: SessionSearchResult
            if let local {
                let folder = try RemoteSessionsSupport.localFolder(
                    local, what: "a Claude Code projects folder on this machine (~/.claude/projects)"
                ).path
                found = try await RemoteSessions.searchLocally(
                    search, folders: [folder], workspaceRoot: workspace.locations().workspaceRoot)
            } else {
                found = try await RemoteSessionsSupport.with(connection, workspace) { try await $0.search(search) }
            }
            connection.logging.logger("rws.search").info(
                "search: \(found.matchedFileCount) files matched, \(found.bytesTransferred) bytes received")
            Terminal.out(
                json
                    ? try JSONValueEncoder.text(of: SearchJSON(query: query, result: found))
                    : SearchOutput.text(found, highlight: Terminal.isTTY(1)))
            return found.sessions.isEmpty ? RWSExitCode.failure : 0
        }
    }

    /// Seconds since 1970 for `--since`: `YYYY-MM-DD[THH:MM[:SS]]` (UTC) or an age before `now`.
    static func time(of text: String, now: Int) throws -> Int {
        let ages: [(String, Int)] = [("m", 60), ("h", 3_600), ("d", 86_400), ("w", 604_800)]
        for (suffix, seconds) in ages where text.hasSuffix(suffix) {
            if let value = Int(text.dropLast()), value >= 0 { return now - value * seconds }
        }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        for (format, completion) in [(10, "T00:00:00Z"), (16, ":00Z"), (19, "Z")] where text.count == format {
            formatter.formatOptions = [.withInternetDateTime]
            if let date = formatter.date(from: text + completion) { return Int(date.timeIntervalSince1970) }
        }
        throw CLIError.usage("--since \(text): give a date (2026-11-01 or 2026-11-01T09:30, UTC) or an age (90m, 12h, 3d, 2w)")
    }
}
