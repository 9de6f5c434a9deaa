import Foundation
import RemoteWorkspace
import Synchronization

/// The permission questions of `rws watch` at the terminal, one at a time beside the events:
/// requests wait in arrival order; a request closed meanwhile (answered in Claude Code, by
/// `rws ask` or by another watcher, or its wait over) leaves the queue, or its question is
/// withdrawn with a line saying how it closed.
final class WatchAnswers: Sendable {
    private struct State {
        var queue: [(id: String, request: ClaudeAttentionRequest, directory: String)] = []
        var asking: String?
        /// Why the request being asked closed, if it closed while asked.
        var closedWhileAsked: ClaudeAttentionRequest.Closing?
        var running = false
    }

    private let watch: ClaudeAttentionWatch
    private let standingGrants: ClaudeStandingGrants
    private let question = TerminalQuestion()
    private let state = Mutex(State())

    init(watch: ClaudeAttentionWatch, standingGrants: ClaudeStandingGrants) {
        self.watch = watch
        self.standingGrants = standingGrants
    }

    /// Whether a question is on the terminal now (an event printed meanwhile starts a new line).
    var isAsking: Bool { state.withLock { $0.asking != nil } }

    /// Queues a request to ask about; starts asking if nothing is being asked.
    func add(_ id: String, _ request: ClaudeAttentionRequest, directory: String) {
        let start = state.withLock { state -> Bool in
            state.queue.append((id, request, directory))
            defer { state.running = true }
            return !state.running
        }
        if start { Task { await self.askAll() } }
    }

    /// A request stopped waiting: it is not asked, or its question is withdrawn.
    func closed(_ id: String, _ reason: ClaudeAttentionRequest.Closing) {
        state.withLock { state in
            state.queue.removeAll { $0.id == id }
            guard state.asking == id else { return }
            state.closedWhileAsked = reason
            // Under the lock: the question withdrawn is this request's, never the next one's.
            question.withdraw()
        }
    }

    private func askAll() async {
        while let (id, request, directory) = next() {
            let decision = await WatchQuestion(request: request, question: question).answer()
            if let reason = state.withLock({ $0.closedWhileAsked }) {
                Terminal.err("\nrws: request \(id) \(request.toolName.safeLine): \(reason.words)\n")
                continue
            }
            guard let decision else { continue }
            do {
                try await watch.answer(id, with: decision)
                Terminal.err("rws: answered\n")
                if case .allowGranting(let grants) = decision {
                    await AskTurn.note(grants, in: standingGrants, directory: directory, client: "rws watch")
                }
            } catch let error as ClaudeHooksError {
                Terminal.err("rws: \(error.description)\n")
            } catch {
                Terminal.err("rws: the answer could not be sent: \(plainDescription(of: error))\n")
            }
        }
    }

    /// The next request to ask about, or nil (and not running) when none waits.
    private func next() -> (String, ClaudeAttentionRequest, String)? {
        state.withLock { state in
            state.asking = nil
            state.closedWhileAsked = nil
            guard !state.queue.isEmpty else {
                state.running = false
                return nil
            }
            let next = state.queue.removeFirst()
            state.asking = next.id
            question.begin()
            return (next.id, next.request, next.directory)
        }
    }
}

extension ClaudeAttentionRequest.Closing {
    /// How the request closed, in words.
    var words: String {
        switch self {
        case .answered: "answered through another rws client"
        case .elsewhere: "answered in Claude Code: its own dialog, or rws ask"
        case .withdrawn: "withdrawn by Claude Code: answered there or through rws ask, or the session ended"
        case .unwatched: "left to Claude Code: no watcher held the lease"
        case .timeout: "left to Claude Code: the hook stopped waiting"
        case .unknown: "no longer waiting"
        }
    }
}
