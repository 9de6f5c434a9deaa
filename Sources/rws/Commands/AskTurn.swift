import Foundation
import RemoteWorkspace
import SessionHistory

/// How a question at the terminal ended.
enum AskQuestionOutcome: Sendable {
    /// The user's answer.
    case answered(ClaudePermissionDecision)
    /// Ctrl+C at the question.
    case interrupted
    /// Ended without an answer: Claude Code withdrew it, or ended.
    case withdrawn
}

/// One turn of `rws ask`: prints events, asks permission questions one at a time, returns the
/// exit status.
///
/// Events and answers meet in one loop. While a question is on the terminal the events that come
/// are held, so the question stays readable, and printed after it. A question Claude Code
/// withdraws (a hook, such as the one `rws watch` answers through, decided first) or that outlives
/// Claude Code is closed at once with a line saying how it ended; the held events flow again and
/// the next keys typed go to the next question only.
struct AskTurn {
    let conversation: ClaudeConversation
    let printer: AskPrinter
    let interactive: Bool
    let question: TerminalQuestion
    /// Where grants kept in a settings file are noted, for `rws hooks status`.
    let standingGrants: ClaudeStandingGrants?

    private var json: Bool { printer.json }

    func run(_ prompt: ClaudePrompt) async throws -> Int32 {
        try await follow(try await conversation.send(prompt))
    }

    /// What the loop acts on, in the order it happened.
    private enum Step: Sendable {
        case event(ClaudeEvent)
        case answered(ClaudePermissionRequest, AskQuestionOutcome)
        /// The event stream ended (with its error, if any).
        case ended((any Error)?)
    }

    /// Where the loop stands.
    private struct Progress {
        var code: Int32 = 0
        /// The request being asked about, and why it was withdrawn if it was.
        var asking: ClaudePermissionRequest?
        var withdrawal: String?
        /// Events that came while a question was asked, in order.
        var held: [ClaudeEvent] = []
        /// Set once the event stream ended.
        var end: Result<Void, any Error>?
        /// The directory Claude Code runs in, once it said.
        var directory: String?
    }

    /// Prints a turn's events and asks its questions; returns the exit status.
    func follow(_ events: AsyncThrowingStream<ClaudeEvent, Error>) async throws -> Int32 {
        let (steps, sink) = AsyncStream<Step>.makeStream()
        let pump = Task {
            do {
                for try await event in events { sink.yield(.event(event)) }
                sink.yield(.ended(nil))
            } catch {
                sink.yield(.ended(error))
            }
        }
        defer { pump.cancel() }
        var printer = self.printer
        defer { printer.indicator.stop() }
        var progress = Progress()
        for await step in steps {
            switch step {
            case .event(.permissionCancelled(let id)):
                printer.show(.permissionCancelled(requestID: id))
                withdraw(id, because: "answered elsewhere (by a hook: rws watch, for instance)", in: &progress)
            case .event(let event):
                if progress.asking != nil {
                    progress.held.append(event)
                } else {
                    show(event, &printer, &progress, sink)
                }
            case .ended(let error):
                progress.end = error.map { .failure($0) } ?? .success(())
                if let asking = progress.asking {
                    withdraw(asking.requestID, because: "not answered: Claude Code ended", in: &progress)
                }
            case .answered(let request, let outcome):
                if let code = try await answered(request, outcome, &printer, &progress) { return code }
                while progress.asking == nil, !progress.held.isEmpty {
                    show(progress.held.removeFirst(), &printer, &progress, sink)
                }
            }
            if progress.asking == nil, let end = progress.end {
                do {
                    try end.get()
                } catch ClaudeConversationError.stopped {
                    return RWSExitCode.interrupted
                }
                return progress.code
            }
        }
        return progress.code
    }

    /// Prints an event; a question starts being asked.
    private func show(_ event: ClaudeEvent, _ printer: inout AskPrinter, _ progress: inout Progress, _ sink: AsyncStream<Step>.Continuation)
    {
        printer.show(event)
        let asked: (request: ClaudePermissionRequest, questions: ClaudeUserQuestions?)
        switch event {
        case .permissionRequest(let request): asked = (request, nil)
        case .userQuestion(let questions): asked = (questions.request, questions)
        case .result(let result):
            progress.code = result.wasInterrupted ? RWSExitCode.interrupted : (result.isError ? RWSExitCode.failure : 0)
            return
        case .sessionStarted(let info):
            progress.directory = info.directory
            return
        default:
            return
        }
        progress.asking = asked.request
        progress.withdrawal = nil
        question.begin()
        let asker = AskQuestioner(interactive: interactive, question: question)
        Task { sink.yield(.answered(asked.request, await asker.decide(asked.request, questions: asked.questions))) }
    }

    /// Claude Code no longer waits for request `id`: its question ends, or it is never asked.
    private func withdraw(_ id: String, because reason: String, in progress: inout Progress) {
        if progress.asking?.requestID == id {
            progress.withdrawal = progress.withdrawal ?? reason
            question.withdraw()
        }
        progress.held.removeAll {
            switch $0 {
            case .permissionRequest(let request): request.requestID == id
            case .userQuestion(let questions): questions.request.requestID == id
            default: false
            }
        }
    }

    /// Acts on a question's end; returns the exit status when the command ends here.
    private func answered(
        _ request: ClaudePermissionRequest, _ outcome: AskQuestionOutcome, _ printer: inout AskPrinter, _ progress: inout Progress
    ) async throws -> Int32? {
        progress.asking = nil
        let tool = request.toolName.safeLine
        switch outcome {
        case .interrupted:
            // Ctrl+C at the question: Claude Code is told no and to stop the turn, then
            // stopped, so that rws returns at once instead of waiting for the turn's end.
            let message = "The user pressed Ctrl+C at the permission question: the tool was not run."
            try? await conversation.respond(to: request, with: .denyAndInterrupt(message: message))
            await conversation.stop()
            if !json { Terminal.err("\nrws: interrupted at the question; \(tool) was not run\n") }
            return RWSExitCode.interrupted
        case .withdrawn:
            if !json { Terminal.err("\nrws: the question about \(tool) was \(progress.withdrawal ?? "withdrawn by Claude Code")\n") }
            printer.indicator.waiting(for: "thinking")
        case .answered(let decision):
            // An answer given as Claude Code ended has nobody to go to.
            guard progress.end == nil else { return nil }
            try await conversation.respond(to: request, with: decision)
            if case .allowGranting(let grants) = decision, let standingGrants, let directory = progress.directory {
                await Self.note(grants, in: standingGrants, directory: directory, client: "rws ask")
            }
            if case .deny = decision {
                printer.indicator.waiting(for: "thinking")
            } else {
                printer.indicator.waiting(for: "running \(AskPrinter.clip(tool, to: 40))")
            }
        }
        return nil
    }
}

extension AskTurn {
    /// Notes grants kept in a settings file; a failure is said, and changes nothing granted.
    static func note(_ grants: [ClaudePermissionGrant], in standing: ClaudeStandingGrants, directory: String, client: String) async {
        do {
            try await standing.record(grants, directory: directory, client: client)
        } catch {
            Terminal.err("rws: granted, but not noted on the box for rws hooks status: \(plainDescription(of: error))\n")
        }
    }
}

/// Asks one permission question (or AskUserQuestion) at the terminal.
struct AskQuestioner: Sendable {
    let interactive: Bool
    let question: TerminalQuestion

    func decide(_ request: ClaudePermissionRequest, questions: ClaudeUserQuestions?) async -> AskQuestionOutcome {
        guard interactive else {
            Terminal.err("rws: \(request.toolName.safeLine) needs permission and there is no terminal to ask: denied\n")
            return .answered(.deny(message: "The user could not be asked (no terminal); the permission mode does not allow this tool."))
        }
        if let questions { return await AskUserQuestionPrompt(asked: questions, question: question).answer() }
        let preview = PermissionPreview(request: request, color: Terminal.isTTY(STDERR_FILENO)).text
        let tool = request.toolName.safeLine
        // Each grant on its own, in words; `a` the narrowest, never a mode change (PermissionChoices).
        let choices = PermissionChoices(request.grants)
        let prompt = "\n\(preview)\(choices.lines)Allow \(tool): \(AskPrinter.summary(of: request.input))? \(choices.choices): "
        switch await choices.ask(question, prompt: prompt) {
        case .interrupted: return .interrupted
        case .withdrawn: return .withdrawn
        case .endOfInput:
            Terminal.err("\nrws: the input ended before an answer: \(tool) denied\n")
            return .answered(.deny(message: "The user could not answer (the input ended); the tool was not run."))
        case .yes: return .answered(.allow)
        case .grant(let grant): return .answered(.allowGranting([grant]))
        case .no: return .answered(.deny(message: "The user denied this tool call."))
        }
    }
}
