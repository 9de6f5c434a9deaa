import ArgumentParser
import Foundation
import RemoteWorkspace
import SessionHistory

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Follow every Claude Code session on the box: what needs you, what finished; answer permission requests.",
        discussion: """
            Prints one line per event of any Claude Code session on the box (or only PROJECT's): the time, the project, the \
            session's title, and what it waits for: "permission: Bash(npm test)", "waiting for your input", "finished: \
            <last line of the answer>", "ended". This needs rws's hooks on the box (rws hooks install; sessions started \
            before it do not report). Without them, rws watch infers events from the session files every 5 s instead, \
            marked (inferred): turn ends, failed turns and tools that wait (for permission, or still running), none answerable.

            While rws watch runs, a permission request waits for your answer here as well as in Claude Code's own dialog (the \
            first answer wins): on a terminal rws asks y (yes), n or Enter (no), a grant's number or a (always: the \
            narrowest grant), as rws ask does, \
            with the tool's input shown and keys typed before the question discarded. Without a terminal, or with \
            --no-answer, requests are only shown. When no rws watches, the hook steps aside at once.

            --exec runs CMD with /bin/sh on this machine for each event, with RWS_EVENT (permission, waiting, finished, ended, \
            started, prompt, notification, closed), RWS_SUMMARY, RWS_TITLE, RWS_PROJECT (the session's directory), RWS_SESSION, \
            RWS_TOOL, RWS_REQUEST and RWS_TIME in its environment: for notify-send, osascript or ntfy.

            A dropped link does not lose events: with the connection's reconnect, rws goes on from where it was.

            Examples:
              rws watch --host box
              rws watch --host box app
              rws watch --host box --json --no-answer
              rws watch --host box --exec 'notify-send "$RWS_TITLE" "$RWS_SUMMARY"'
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: ArgumentHelp("Only sessions in this project (a name or a path on the box).", valueName: "project"))
    var project: String?

    @Flag(name: .long, help: "Print one JSON object per event.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Run this shell command here for each event (details in RWS_* variables).", valueName: "cmd"))
    var exec: String?

    @Flag(name: .long, help: "Do not answer permission requests, only show them.")
    var noAnswer = false

    @Flag(name: .long, help: "Also print the events already in the spool (up to about 2 MB of them).")
    var fromStart = false

    func run() async throws {
        try await runReportingErrors(json: json) {
            let interactive = !noAnswer && !json && Terminal.isTTY(STDIN_FILENO)
            return try await connection.withConnection(reconnect: .init()) { ssh in
                let locations = workspace.locations()
                let sessions = RemoteSessions(
                    connection: ssh, locations: locations,
                    cache: SessionListingCache(for: ssh.configuration, environment: ProcessEnvironment.current))
                var printer = WatchPrinter(json: json, exec: exec, filter: project.map(locations.directory(ofProject:)), sessions: sessions)
                let watch: ClaudeAttentionWatch
                do {
                    watch = try await ClaudeAttentionWatch.start(on: ssh, locations: locations, fromStart: fromStart)
                } catch ClaudeHooksError.notInstalled {
                    return try await inferring(from: sessions, printer: printer)
                }
                let ending = EndingSignal()
                let handler = ending.handle { Task { try? await watch.stop() } }
                defer { handler.remove() }
                if !json { Terminal.err("rws: watching Claude Code sessions on the box (Ctrl+C to stop)\n") }
                let answers = interactive ? WatchAnswers(watch: watch, standingGrants: ClaudeStandingGrants(connection: ssh)) : nil
                for try await event in watch {
                    if case .requestClosed(let id, let reason) = event.kind { answers?.closed(id, reason) }
                    guard printer.wants(event) else { continue }
                    if answers?.isAsking == true { Terminal.out("\n") }
                    await printer.show(event)
                    if let answers, case .permissionRequested(let request) = event.kind, let id = request.id {
                        answers.add(id, request, directory: event.directory)
                    }
                }
                try? await watch.stop()
                return ending.number.map { 128 + $0 } ?? 0
            }
        }
    }
}

extension WatchCommand {
    /// How often the box's sessions are listed when the hooks are not installed.
    static let inferenceInterval = Duration.seconds(5)

    /// `rws watch` without the hooks: events guessed from a listing every few seconds, until a signal.
    func inferring(from sessions: RemoteSessions, printer: WatchPrinter) async throws -> Int32 {
        Terminal.err(
            "rws: rws's hooks are not installed on the box, so events are inferred from the session files every "
                + "\(Self.inferenceInterval.components.seconds) s and cannot be answered; rws hooks install gives exact ones at once\n")
        let ending = EndingSignal()
        let loop = Task { [printer] in
            var printer = printer
            var inference = ClaudeAttentionInference()
            while !Task.isCancelled {
                let listed = try await sessions.listing(project: project).sessions
                for event in inference.events(from: listed) where printer.wants(event) { await printer.show(event) }
                try await Task.sleep(for: Self.inferenceInterval)
            }
        }
        let handler = ending.handle { loop.cancel() }
        defer { handler.remove() }
        do {
            try await loop.value
        } catch {
            // A signal cancels the loop wherever it is (a listing under way, or the pause).
            guard ending.number != nil else { throw error }
        }
        return ending.number.map { 128 + $0 } ?? 0
    }
}

/// Asks about one permission request at the terminal, as `rws ask` does.
struct WatchQuestion {
    let request: ClaudeAttentionRequest
    let question: TerminalQuestion

    /// The answer to send; nil when the question was withdrawn (answered elsewhere) while asked.
    func answer() async -> ClaudeAttentionDecision? {
        let choices = PermissionChoices(request.grants)
        let preview = PermissionPreview(request: request, color: Terminal.isTTY(STDERR_FILENO)).text
        let input = AskPrinter.clip(request.inputSummary.safeLine, to: 200)
        let prompt = "\n\(preview)\(choices.lines)Allow \(request.toolName.safeLine): \(input)? \(choices.choices): "
        switch await choices.ask(question, prompt: prompt) {
        case .withdrawn: return nil
        case .interrupted, .endOfInput: return .deny(message: "The user watching with rws did not answer; the tool was not run.")
        case .yes: return .allow
        case .grant(let grant): return .allowGranting([grant])
        case .no: return .deny(message: "The user denied this tool call (answered through rws watch).")
        }
    }
}
