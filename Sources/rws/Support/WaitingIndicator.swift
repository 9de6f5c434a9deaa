import Foundation
import Synchronization

/// Signs of life for `rws ask` on a terminal: one line on stderr saying what is awaited and for
/// how long (`⠹ thinking… 12 s`, `⠹ running Bash… 3 s`), redrawn in place and erased before
/// anything else is printed.
///
/// Disabled (every call a no-op) with `--json` or when stderr is not a terminal. The line is only
/// drawn while the output is at the start of a line, so it never overwrites half-printed text.
final class WaitingIndicator: Sendable {
    private struct State {
        /// What is awaited; nil when nothing is (text streams, a question is asked).
        var label: String?
        var since = ContinuousClock.now
        /// Whether the printed output ends mid-line.
        var lineOpen = false
        /// Whether the line is on screen now.
        var shown = false
        var frame = 0
    }

    private static let frames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
    private static let eraseLine = "\r\u{1B}[K"

    private let state = Mutex(State())
    private let ticker = Mutex<Task<Void, Never>?>(nil)
    let enabled: Bool

    /// - Parameter enabled: whether to draw at all (stderr is a terminal and the output is not JSON).
    init(enabled: Bool, interval: Duration = .milliseconds(150)) {
        self.enabled = enabled
        guard enabled else { return }
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                self?.redraw()
            }
        }
        ticker.withLock { $0 = task }
    }

    deinit {
        ticker.withLock { $0?.cancel() }
    }

    /// Says that `label` (`thinking`, `running Bash`) is awaited from now on; the same label again
    /// keeps its start time.
    func waiting(for label: String) {
        guard enabled else { return }
        state.withLock { state in
            if state.label != label { state.since = .now }
            state.label = label
        }
        redraw()
    }

    /// Erases the line and draws nothing until the next ``waiting(for:)``.
    func pause() {
        guard enabled else { return }
        state.withLock { state in
            state.label = nil
            Self.erase(&state)
        }
    }

    /// Runs `write` (printing to stdout or stderr) with the line erased, so that the two never
    /// mix; `endsMidLine` says whether the output then ends in the middle of a line.
    func print(endsMidLine: Bool, _ write: () -> Void) {
        guard enabled else { return write() }
        state.withLock { state in
            Self.erase(&state)
            write()
            state.lineOpen = endsMidLine
        }
    }

    /// Erases the line and stops redrawing for good.
    func stop() {
        guard enabled else { return }
        ticker.withLock { $0?.cancel() }
        pause()
    }

    private func redraw() {
        state.withLock { state in
            guard let label = state.label, !state.lineOpen else { return }
            let seconds = (ContinuousClock.now - state.since).components.seconds
            let frame = Self.frames[state.frame % Self.frames.count]
            state.frame += 1
            Terminal.err("\(Self.eraseLine)\u{1B}[2m\(frame) \(label)… \(seconds) s\u{1B}[0m")
            state.shown = true
        }
    }

    private static func erase(_ state: inout State) {
        guard state.shown else { return }
        Terminal.err(eraseLine)
        state.shown = false
    }
}
