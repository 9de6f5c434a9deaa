import ArgumentParser
import Foundation
import SessionHistory

/// Output formats of a session.
enum HistoryFormat: String, ExpressibleByArgument, CaseIterable {
    case text, markdown, json

    var exportFormat: ExportFormat {
        switch self {
        case .text: return .text
        case .markdown: return .markdown
        case .json: return .json
        }
    }
}

struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show one Claude Code session: prompts, answers, tool calls.",
        discussion: """
        SESSION is a session file (.jsonl) on this machine. Subagent transcripts found next to it
        (agent-*.jsonl, <session>/subagents/) are included.

        Examples:
          rws history ~/.claude/projects/-home-me-app/0b1c....jsonl
          rws history session.jsonl --format markdown > session.md
        """
    )

    @Argument(help: "A session file (.jsonl).")
    var session: String

    @Option(name: .long, help: "text (readable at a glance), markdown, or json.")
    var format: HistoryFormat = .text

    @Flag(name: .long, help: "Include the model's thinking.")
    var thinking = false

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        await runReportingErrors {
            let url = URL(fileURLWithPath: NSString(string: session).expandingTildeInPath)
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw CLIError.failed("no session file at \(url.path)", code: RWSExitCode.failure)
            }
            let loaded = try LocalSession.load(at: url)
            var options = RenderOptions()
            options.includeThinking = thinking
            options.title = loaded.summary.title
            Terminal.out(loaded.render(format.exportFormat, options: options))
            return 0
        }
    }
}
