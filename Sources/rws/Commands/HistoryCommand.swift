import ArgumentParser
import Foundation
import RemoteWorkspace
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
        abstract: "Show one Claude Code session: prompts, answers, tool calls; --follow to watch it live.",
        discussion: """
        SESSION is a session id on the box (a unique prefix is enough; see `rws sessions`), or a session file (.jsonl) on this machine when no host is given. Subagent transcripts are included. Text output shows the role and time of each message, tool calls one line each, long tool output folded.

        --follow prints the session, then each new message as Claude Code writes it, until Ctrl+C. It needs nothing on the box but sh: the file is polled four times a second.

        Examples:
          rws history --host box 0b1c
          rws history --host box 0b1c --follow
          rws history --host box 0b1c --format markdown > session.md
          rws history ~/.claude/projects/-home-me-app/0b1c....jsonl
        """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: "A session id or id prefix on the box, or a local session file (.jsonl).")
    var session: String

    @Option(name: .long, help: "text (readable at a glance), markdown, or json.")
    var format: HistoryFormat = .text

    @Flag(name: .long, help: "Include the model's thinking.")
    var thinking = false

    @Flag(name: .long, help: "Keep printing new messages as the session grows (text or markdown), until Ctrl+C.")
    var follow = false

    func validate() throws {
        if follow, format == .json { throw ValidationError("--follow prints text or markdown; leave out --format json") }
    }

    func run() async throws {
        await runReportingErrors(json: format == .json) {
            var options = RenderOptions()
            options.includeThinking = thinking
            guard RemoteSessionsSupport.isRemote(session, connection: connection) else {
                guard !follow else { throw CLIError.usage("--follow watches a session on a box: give --host") }
                let loaded = try LocalSession.load(at: URL(fileURLWithPath: NSString(string: session).expandingTildeInPath))
                Terminal.out(loaded.render(format.exportFormat, options: options))
                return 0
            }
            try await RemoteSessionsSupport.with(connection, workspace) { sessions in
                let loaded = try await sessions.loadSession(session)
                Terminal.out(loaded.render(format.exportFormat, options: options))
                if follow { try await Self.follow(loaded, sessions: sessions, format: format.exportFormat, options: options) }
            }
            return 0
        }
    }

    /// Prints new events until Ctrl+C, which ends the remote loop with the stream.
    static func follow(_ loaded: RemoteSession, sessions: RemoteSessions, format: ExportFormat, options: RenderOptions) async throws {
        let stream = try sessions.follow(loaded.listing, from: loaded.followOffset)
        let task = Task {
            var printer = FollowPrinter(format: format, options: options)
            for try await event in stream { printer.print(event) }
        }
        let interrupt = InterruptHandler { task.cancel() }
        defer { interrupt.remove() }
        do {
            try await task.value
        } catch is CancellationError {
            return
        }
    }
}
