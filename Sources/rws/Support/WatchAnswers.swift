import Foundation
import RemoteWorkspace
import Synchronization

/// The permission questions of `rws watch` at the terminal, one at a time beside the events:
/// requests wait in arrival order; a request closed meanwhile (answered in Claude Code or by
/// another watcher, or its wait over) leaves the queue, or ends its question if it is being asked.
final class WatchAnswers: Sendable {
    private struct State {
        var queue: [(id: String, request: ClaudeAttentionRequest)] = []
        var asking: String?
        var closedWhileAsked = false
        var running = false
    }

    private let watch: ClaudeAttentionWatch
    private let question = TerminalQuestion()
    private let state = Mutex(State())

    init(watch: ClaudeAttentionWatch) {
        self.watch = watch
    }

    /// Whether a question is on the terminal now (an event printed meanwhile starts a new line).
    var isAsking: Bool { state.withLock { $0.asking != nil } }

    /// Queues a request to ask about; starts asking if nothing is being asked.
    func add(_ id: String, _ request: ClaudeAttentionRequest) {
        let start = state.withLock { state -> Bool in
            state.queue.append((id, request))
            defer { state.running = true }
            return !state.running
        }
        if start { Task { await self.askAll() } }
    }

    /// A request stopped waiting: it is not asked, or its question ends.
    func closed(_ id: String) {
        let interrupt = state.withLock { state -> Bool in
            state.queue.removeAll { $0.id == id }
            guard state.asking == id else { return false }
            state.closedWhileAsked = true
            return true
        }
        if interrupt { question.interrupt() }
    }

    private func askAll() async {
        while let (id, request) = next() {
            let decision = await WatchQuestion(request: request, question: question).answer()
            if state.withLock({ $0.closedWhileAsked }) {
                Terminal.err("\nrws: request \(id) was answered elsewhere\n")
                continue
            }
            do {
                try await watch.answer(id, with: decision)
                Terminal.err("rws: answered\n")
            } catch let error as ClaudeHooksError {
                Terminal.err("rws: \(error.description)\n")
            } catch {
                Terminal.err("rws: the answer could not be sent: \(plainDescription(of: error))\n")
            }
        }
    }

    /// The next request to ask about, or nil (and not running) when none waits.
    private func next() -> (String, ClaudeAttentionRequest)? {
        state.withLock { state in
            state.asking = nil
            state.closedWhileAsked = false
            guard !state.queue.isEmpty else {
                state.running = false
                return nil
            }
            let next = state.queue.removeFirst()
            state.asking = next.id
            return (next.id, next.request)
        }
    }
}
