import ArgumentParser
import Foundation
import RemoteWorkspace
import SSHClient
import SessionHistory
import Synchronization

struct AskCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ask",
        abstract: "Ask Claude Code on the box and stream its answer.",
        discussion: """
            Runs Claude Code on the box over the SSH connection (nothing but Claude Code has to be installed there), in PROJECT's \
            directory: a project name in the workspace root (app), or a path on the box (~/src/app, /srv/app). Without PROJECT: \
            the remote home, or the session's own directory with --resume.

            The answer streams to stdout, its control characters shown visibly (\\e, \\x07), as rws history shows them: \
            text from the box never sets the window title or the clipboard or moves the cursor (--json keeps them, \
            escaped). Tool calls and their results go to stderr. When Claude Code asks whether a tool may \
            run, rws asks you on the terminal: y (this once), n or Enter (no), or a standing grant: each one Claude Code \
            suggests (a rule such as Bash(npm test *), a working folder, a permission mode) is listed by number with what it \
            lets run without asking and where it is kept, and the number grants that one alone; a (always) takes the \
            narrowest (a rule; for a file edit, that file for this session), never a mode change. Any other answer is asked \
            again. Keys typed before the question appeared are discarded; \
            Ctrl+C at a question ends the turn. Without a terminal rws cannot ask, so it refuses to start unless \
            --permission-mode is given; questions that still come are then answered no.

            On a terminal, one line of stderr says what is awaited and for how long (thinking… 12 s, running Bash… 3 s), \
            erased before anything else is printed; --thinking also shows the model's thinking, dimmed. Neither appears with \
            --json or when stderr is not a terminal.

            Ctrl+C interrupts the turn; a second Ctrl+C stops Claude Code and exits with 130.

            With --persist, Claude Code runs on the box apart from the SSH connection: when the link drops (a train, a \
            laptop lid, Wi-Fi to mobile data) the turn goes on there, rws reconnects by itself (for up to 5 minutes) and \
            shows what happened meanwhile, each event once; a permission question raised meanwhile is asked then. rws \
            prints the conversation's id at the start: rws ask --attach ID follows it from another terminal or machine \
            (taking it over), rws ask --stop ID stops it (checked in the box's process table), rws ask --list-detached \
            lists them. Left with no client, it ends on the box after --idle (30m by default) and its files are removed.

            Terms: rws ask runs Claude Code in its headless stream-json mode (the mode of the Claude Agent SDK); rws claude \
            runs its interactive UI. Anthropic's terms may bill headless use differently from interactive use on subscription \
            plans: check their current terms.

            With --json, every event is one JSON object per line (session_started, text_delta, tool_call, tool_result, \
            permission_request, user_question, usage, error, result…; with --persist first detached with the conversation_id, \
            and link_lost, reattached around a lost link).

            Exit status: 0 when the turn ended well; 1 when it ended in an error (API error, not logged in, Claude Code missing); \
            130 when interrupted; 255 when the connection failed.

            Examples:
              rws ask --host box app "What does main.swift do?"
              rws ask --host box app "Run the tests and fix what fails" --permission-mode acceptEdits
              rws ask --host box --continue app "And the other file?"
              git diff | rws ask --host box app - --permission-mode plan
              rws ask --host box --resume 0b1c "Summarise where we are"
              rws ask --host box app "What is on this screenshot?" --image shot.png --file src/main.swift
              rws ask --host box app "List the TODOs" --permission-mode plan --json
              rws ask --host box --persist app "Run the whole test suite and fix what fails"
              rws ask --host box --attach 3f9c01ab
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: ArgumentHelp("[PROJECT] PROMPT: the project (optional) and what to ask.", valueName: "project-and-prompt"))
    var words: [String] = []

    @OptionGroup var start: ClaudeStartOptions

    @Flag(name: .long, help: "With --resume or --continue: continue under a new session id, leaving the original as it was.")
    var fork = false

    @Option(
        name: .customLong("image"),
        help: ArgumentHelp("Send this local image (PNG, JPEG, GIF, WebP) with the prompt; repeatable.", valueName: "path"),
        completion: .file(extensions: ["png", "jpg", "jpeg", "gif", "webp"]))
    var images: [String] = []

    // A path on the box: local file completion would offer the wrong files.
    @Option(
        name: .customLong("file"),
        help: ArgumentHelp(
            "Have Claude Code read this file on the box (it must exist there) into the prompt; repeatable.", valueName: "path"))
    var files: [String] = []

    @Flag(name: .long, help: "Print one JSON event per line.")
    var json = false

    @Flag(name: .long, help: "Show Claude Code's thinking text on stderr (dimmed on a terminal).")
    var thinking = false

    @OptionGroup var detached: AskDetachedOptions

    func validate() throws {
        try detached.validate(words: words)
        if detached.isManaging { return }
        guard (1...2).contains(words.count) || (words.isEmpty && !Terminal.isTTY(STDIN_FILENO)) else {
            throw ValidationError("give a PROMPT, optionally after a PROJECT (or - to read it from stdin)")
        }
        if fork, start.resume == nil, !start.continueMostRecent { throw ValidationError("--fork needs --resume or --continue") }
    }

    /// The prompt: the last word, or stdin when that is `-` or no prompt was given (stdin not a terminal).
    private func promptText() throws -> String {
        guard words.isEmpty || words.last == "-" else { return words.last ?? "" }
        let text = String(decoding: Terminal.readStandardInput(), as: UTF8.self)
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw CLIError.usage("the prompt read from stdin is empty: pipe the question into rws ask, or give it as PROMPT")
        }
        return text
    }

    func run() async throws {
        if detached.isManaging { return try await detached.run(connection: connection, json: json, thinking: thinking) }
        try await runReportingErrors(json: json) {
            var options = try start.options(project: words.count == 2 ? words[0] : nil, locations: workspace.locations())
            options.fork = fork
            options.detached = detached.policy
            let interactive = Terminal.isTTY(STDIN_FILENO)
            guard interactive || options.permissionMode != nil else {
                throw CLIError.usage(
                    "stdin is not a terminal, so rws cannot ask before a tool runs: pass --permission-mode "
                        + "(\(ClaudeStartOptions.knownModes))")
            }
            start.warnAboutUnknownMode()
            let prompt = ClaudePrompt(try promptText(), images: try images.map(ClaudeImage.init(contentsOfFile:)), files: files)
            let indicator = WaitingIndicator(enabled: !json && Terminal.isTTY(STDERR_FILENO))
            defer { indicator.stop() }
            indicator.waiting(for: "starting Claude Code")
            return try await connection.withConnection(reconnect: detached.reconnect) { ssh in
                let prepared = try await ClaudeStartOptions.prepare(options, files: files, on: ssh)
                let conversation = try await ClaudeConversation.start(on: ssh, options: prepared)
                AskDetachedOptions.announce(conversation, json: json, indicator: indicator)
                let ending = EndingSignal()
                let question = TerminalQuestion()
                let interrupts = AskInterrupts(
                    conversation: conversation, question: question, quiet: json, indicator: indicator, ending: ending)
                defer { interrupts.remove() }
                let printer = AskPrinter(json: json, showThinking: thinking, indicator: indicator)
                let turn = AskTurn(
                    conversation: conversation, printer: printer, interactive: interactive, question: question,
                    standingGrants: ClaudeStandingGrants(connection: ssh))
                do {
                    let code = try await turn.run(prompt)
                    let saved = try? await conversation.savedSession()
                    await conversation.stop()
                    if let ended = ending.number { return 128 + ended }
                    guard let saved, saved.mayBeLost else { return code }
                    Terminal.err("rws: \(AskPrinter.unsaved(saved).safeText)\n")
                    return code == 0 ? RWSExitCode.failure : code
                } catch {
                    throw ending.reporting(await AskDetachedOptions.leave(conversation, after: error))
                }
            }
        }
    }
}

/// Prints events as text (answer on stdout, the rest on stderr) or as JSON lines, and keeps the
/// ``WaitingIndicator`` saying what is awaited.
struct AskPrinter {
    let json: Bool
    /// Whether to print thinking text (dimmed on a terminal) on stderr.
    let showThinking: Bool
    let indicator: WaitingIndicator
    /// Which stream, if any, has a line open (printed without its newline yet).
    private var openLine: OpenLine = .none
    private enum OpenLine { case none, answer, thinking }
    /// The permission mode last said (``ClaudePermissionMode/questionNote``).
    private var notedMode: String?

    init(json: Bool, showThinking: Bool = false, indicator: WaitingIndicator = WaitingIndicator(enabled: false)) {
        self.json = json
        self.showThinking = showThinking
        self.indicator = indicator
    }

    mutating func show(_ event: ClaudeEvent) {
        if json { return Terminal.out(JSONWriter.string(from: event.json) + "\n") }
        switch event {
        case .sessionStarted(let info):
            // Said once per mode: where no question will come, the user should not wait for one.
            if info.permissionMode != notedMode, let note = ClaudePermissionMode(rawValue: info.permissionMode).questionNote {
                endLine()
                indicator.print(endsMidLine: false) {
                    Terminal.err("rws: Claude Code runs in permission mode \(info.permissionMode.safeLine): \(note)\n")
                }
            }
            notedMode = info.permissionMode
            indicator.waiting(for: "thinking")
        case .textDelta(let text):
            if openLine == .thinking { endLine() }
            // Text from the box never drives the terminal (a window title, the clipboard): shown visibly, as history does.
            indicator.print(endsMidLine: !text.hasSuffix("\n")) { Terminal.out(text.safeText) }
            openLine = text.hasSuffix("\n") ? .none : .answer
            indicator.waiting(for: "thinking")
        case .thinkingDelta(let text) where showThinking:
            if openLine == .answer { endLine() }
            let dim = Terminal.isTTY(STDERR_FILENO)
            let shown = text.safeText
            indicator.print(endsMidLine: !shown.hasSuffix("\n")) { Terminal.err(dim ? "\u{1B}[2m\(shown)\u{1B}[0m" : shown) }
            openLine = shown.hasSuffix("\n") ? .none : .thinking
        case .toolCall(let call):
            endLine()
            indicator.print(endsMidLine: false) { Terminal.err("⏺ \(call.name.safeLine)(\(Self.summary(of: call.input)))\n") }
            indicator.waiting(for: "running \(Self.clip(call.name.safeLine, to: 40))")
        case .toolResult(let result):
            endLine()
            let first = result.content.split(separator: "\n").first.map(String.init) ?? ""
            indicator.print(endsMidLine: false) {
                Terminal.err("  ⎿ \(result.isError ? "error: " : "")\(Self.clip(first.safeLine, to: 160))\n")
            }
            indicator.waiting(for: "thinking")
        case .permissionRequest, .userQuestion:
            endLine()
            indicator.pause()
        case .apiRetry(let attempt, let maxRetries, let status, let error):
            endLine()
            indicator.print(endsMidLine: false) {
                Terminal.err("rws: API error \(status.map(String.init) ?? error.safeLine); retry \(attempt) of \(maxRetries)\n")
            }
        case .error(let error):
            endLine()
            indicator.print(endsMidLine: false) { Terminal.err("rws: \(error.description.safeText)\n") }
        case .linkLost(let reason):
            endLine()
            indicator.print(endsMidLine: false) {
                Terminal.err("rws: link lost (\(reason.safeLine)); Claude Code goes on on the box, reconnecting…\n")
            }
            indicator.waiting(for: "reconnecting")
        case .reattached:
            indicator.print(endsMidLine: false) { Terminal.err("rws: reattached; what happened meanwhile follows\n") }
            indicator.waiting(for: "thinking")
        case .result(let result):
            endLine()
            indicator.stop()
            Terminal.err(Self.closing(result))
        default:
            break
        }
    }

    /// Says that Claude Code may not have saved the turn: the box has no space where it keeps sessions.
    static func unsaved(_ saved: ClaudeSessionSave) -> String {
        "no space left on the box for \(saved.shownName): Claude Code may not have saved this turn "
            + "(\(saved.bytes) bytes are there), and it says nothing of that; free some space on the box (df -h shows where) "
            + "before you resume or continue the conversation"
    }

    /// The closing summary line of a turn: this turn's cost and tokens, then the session's total
    /// (earlier runs of a resumed session included), each as far as Claude Code reports it.
    static func closing(_ result: ClaudeTurnResult) -> String {
        let seconds = String(
            format: "%.1f s",
            Double(result.duration.components.seconds) + Double(result.duration.components.attoseconds) / 1e18)
        let turn = ([result.turnCostUSD.map(dollars)] + [tokens(result.usage)]).compactMap { $0 }.joined(separator: ", ")
        let total = ([dollars(result.costUSD)] + [result.sessionUsage.map(tokens)]).compactMap { $0 }.joined(separator: ", ")
        let interrupted = result.wasInterrupted ? "interrupted · " : ""
        return "\(interrupted)session \(result.sessionID.safeLine) · this turn \(turn) · session total \(total) · \(seconds)\n"
    }

    private static func dollars(_ amount: Double) -> String { String(format: "$%.4f", amount) }

    /// `N tokens in / M out`, the input counting cached tokens too.
    private static func tokens(_ usage: TokenUsage) -> String {
        "\(usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens) tokens in / \(usage.outputTokens) out"
    }

    /// Ends the open line, if any, on the stream it is open on.
    private mutating func endLine() {
        switch openLine {
        case .none: return
        case .answer: indicator.print(endsMidLine: false) { Terminal.out("\n") }
        case .thinking: indicator.print(endsMidLine: false) { Terminal.err("\n") }
        }
        openLine = .none
    }

    /// A tool input in one line: its command or path when it has one, else compact JSON.
    static func summary(of input: JSONValue) -> String {
        for key in ["command", "file_path", "path", "pattern", "url"] {
            if let value = input[key]?.stringValue { return clip(value.safeLine, to: 200) }
        }
        return clip(JSONWriter.string(from: input).safeLine, to: 200)
    }

    static func clip(_ text: String, to length: Int) -> String {
        text.count <= length ? text : String(text.prefix(length)) + "…"
    }
}

/// Ctrl+C during `rws ask`: the first interrupts the turn, the second stops Claude Code. SIGTERM
/// and SIGHUP (see ``EndingSignal``) stop Claude Code at once.
final class AskInterrupts {
    private final class Presses: Sendable {
        private let count = Mutex(0)
        func next() -> Int {
            count.withLock {
                $0 += 1
                return $0
            }
        }
    }

    private let handler: InterruptHandler

    init(conversation: ClaudeConversation, question: TerminalQuestion, quiet: Bool, indicator: WaitingIndicator, ending: EndingSignal) {
        let presses = Presses()
        handler = InterruptHandler(signals: EndingSignal.numbers) { number in
            if number != SIGINT {
                // TERM/HUP end everything, a question waiting for a key included.
                ending.record(number)
                _ = question.interrupt()
                Task { await conversation.stop() }
            } else if question.interrupt() {
                // At a question, Ctrl+C ends the question and the turn itself (see AskTurn).
                return
            } else if presses.next() == 1 {
                if !quiet { indicator.print(endsMidLine: false) { Terminal.err("\nrws: interrupting the turn (Ctrl+C again to quit)\n") } }
                Task { try? await conversation.interrupt() }
            } else {
                Task { await conversation.stop() }
            }
        }
    }

    func remove() {
        handler.remove()
    }
}
