import Foundation
import Platform
import RemoteWorkspace
import Synchronization

/// Shows clone progress on stderr, fitted to where it goes: on a terminal one line redrawn in
/// place (phase, percent, objects, bytes and rate); on a pipe or file one line per finished phase
/// and nothing else, so logs stay short. git's other lines (warnings) are shown as they come.
final class CloneProgressView: Sendable {
    private let isTerminal: Bool
    private let columns: @Sendable () -> Int
    private let write: @Sendable (String) -> Void
    private let state = Mutex(State())

    private struct State {
        /// The latest step of the phase under way whose line a pipe has not had yet.
        var unprinted: CloneProgress?
        /// The step the terminal line shows now.
        var lastDrawn: CloneProgress?
    }

    init(
        isTerminal: Bool = Terminal.isTTY(STDERR_FILENO),
        columns: @escaping @Sendable () -> Int = { SystemCall.windowSize(STDERR_FILENO)?.columns ?? 80 },
        write: @escaping @Sendable (String) -> Void = { Terminal.err($0) }
    ) {
        self.isTerminal = isTerminal
        self.columns = columns
        self.write = write
    }

    /// Shows one event.
    func show(_ event: CloneEvent) {
        state.withLock { state in
            switch event {
            case .message(let text) where isTerminal && state.lastDrawn != nil:
                // Above the progress line, which is drawn again below it: progress stays one line.
                write("\r\u{1B}[K" + text + "\n")
                if let step = state.lastDrawn { redraw(step, &state) }
            case .message(let text):
                // On a pipe the unfinished phase still gets its one line when it ends.
                write(text + "\n")
            case .progress(let step):
                if isTerminal { redraw(step, &state) } else { record(step, &state) }
            }
        }
    }

    /// Ends the progress line (terminal) or prints the last phase's line (pipe) before other output.
    func finish() {
        state.withLock { state in
            if state.lastDrawn != nil { write("\n") }
            state.lastDrawn = nil
            if let pending = state.unprinted { write(Self.describe(pending, bar: false) + "\n") }
            state.unprinted = nil
        }
    }

    private func redraw(_ step: CloneProgress, _ state: inout State) {
        state.lastDrawn = step
        // One column short of the width: a full line would wrap, and `\r` would then redraw only its tail.
        let width = max(20, columns() - 1)
        let text = Self.describe(step, bar: true)
        write("\r" + String(text.prefix(width)) + "\u{1B}[K")
    }

    private func record(_ step: CloneProgress, _ state: inout State) {
        if let pending = state.unprinted, pending.phase != step.phase { write(Self.describe(pending, bar: false) + "\n") }
        state.unprinted = step
        if step.isDone {
            write(Self.describe(step, bar: false) + "\n")
            state.unprinted = nil
        }
    }

    /// `Receiving objects  45% (1350/3000) [#####.....] 1.2 MiB 2.4 MiB/s`, or on a pipe
    /// `Receiving objects: 100% (3000/3000), 3.1 MiB, done`.
    static func describe(_ step: CloneProgress, bar: Bool) -> String {
        let counts = step.percent.map { "\($0)% (\(step.completed)/\(step.total ?? step.completed))" } ?? String(step.completed)
        guard bar else { return "\(step.phase.label): \(counts)\(transfer(step, separator: ", "))\(step.isDone ? ", done" : "")" }
        let filled = (step.percent ?? 0) * 20 / 100
        let drawn =
            step.percent == nil ? "" : " [" + String(repeating: "#", count: filled) + String(repeating: ".", count: 20 - filled) + "]"
        return step.phase.label.padding(toLength: 21, withPad: " ", startingAt: 0) + counts + drawn + transfer(step, separator: " ")
    }

    private static func transfer(_ step: CloneProgress, separator: String) -> String {
        guard let bytes = step.bytes else { return "" }
        return separator + size(bytes) + (step.bytesPerSecond.map { " " + size($0) + "/s" } ?? "")
    }

    static func size(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }
}
