import ArgumentParser
import Foundation
import SessionHistory

struct SessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List Claude Code sessions, newest first.",
        discussion: """
        With --local DIR, lists the sessions of one project folder on this machine
        (a folder under ~/.claude/projects/).

        Examples:
          rws sessions --local ~/.claude/projects/-home-me-app
          rws sessions --local ~/.claude/projects/-home-me-app --json
        """
    )

    @Option(name: .long, help: ArgumentHelp("A Claude Code project folder on this machine.", valueName: "dir"))
    var local: String?

    @Flag(name: .long, help: "Print JSON instead of a table.")
    var json = false

    @Option(name: .long, help: "Show at most this many sessions.")
    var limit: Int?

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        await runReportingErrors {
            guard let local else { throw CLIError.usage("give a project folder with --local DIR") }
            let folder = URL(fileURLWithPath: NSString(string: local).expandingTildeInPath)
            var listings = try LocalProject.listSessions(in: folder)
            if let limit { listings = Array(listings.prefix(max(0, limit))) }
            Terminal.out(json ? try SessionTable.json(listings.map(\.summary)) : SessionTable.text(listings.map(\.summary)))
            return 0
        }
    }
}

/// How session summaries look on a terminal and in JSON.
enum SessionTable {
    static func text(_ summaries: [SessionSummary]) -> String {
        guard !summaries.isEmpty else { return "no sessions\n" }
        return summaries.map { summary in
            let when = summary.lastTimestamp.map { String($0.prefix(16)).replacingOccurrences(of: "T", with: " ") } ?? "-               "
            let id = String(summary.id.prefix(8))
            let title = summary.title ?? "(untitled)"
            return "\(id)  \(when)  \(title)\n"
        }.joined()
    }

    static func json(_ summaries: [SessionSummary]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(summaries), as: UTF8.self) + "\n"
    }
}
