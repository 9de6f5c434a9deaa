import Foundation
import RemoteWorkspace

/// Shows clone progress on stderr: a bar redrawn in place on a terminal, otherwise one plain
/// line per phase and per 10 percent, so logs stay readable.
final class CloneProgressView: @unchecked Sendable {
    private let isTerminal: Bool
    private let lock = NSLock()
    private var lastPhase: ClonePhase?
    private var lastLineKey = ""
    private var barShown = false

    init(isTerminal: Bool = Terminal.isTTY(STDERR_FILENO)) {
        self.isTerminal = isTerminal
    }

    /// Shows one event.
    func show(_ event: CloneEvent) {
        lock.lock()
        defer { lock.unlock() }
        switch event {
        case .message(let text):
            endBar()
            Terminal.err(text + "\n")
        case .progress(let step):
            if isTerminal { drawBar(step) } else { printLine(step) }
        }
    }

    /// Ends the bar line before other output.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        endBar()
    }

    private func drawBar(_ step: CloneProgress) {
        if let phase = lastPhase, phase != step.phase { Terminal.err("\n") }
        lastPhase = step.phase
        barShown = true
        let percent = step.percent ?? 0
        let filled = percent * 30 / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled)
        Terminal.err("\r\(Self.pad(step.phase.label)) \(Self.percentText(step)) [\(bar)]\(Self.transfer(step))\u{1B}[K")
    }

    private func printLine(_ step: CloneProgress) {
        let key = "\(step.phase) \((step.percent ?? 0) / 10) \(step.isDone)"
        guard key != lastLineKey else { return }
        lastLineKey = key
        let counts = step.percent.map { "\($0)% (\(step.completed)/\(step.total ?? step.completed))" } ?? String(step.completed)
        Terminal.err("\(step.phase.label): \(counts)\(Self.transfer(step))\(step.isDone ? ", done" : "")\n")
    }

    private func endBar() {
        if barShown { Terminal.err("\n") }
        barShown = false
        lastPhase = nil
    }

    private static func pad(_ text: String) -> String {
        text.padding(toLength: 19, withPad: " ", startingAt: 0)
    }

    private static func percentText(_ step: CloneProgress) -> String {
        step.percent.map { String(format: "%3d%%", $0) } ?? " \(step.completed)"
    }

    private static func transfer(_ step: CloneProgress) -> String {
        guard let bytes = step.bytes else { return "" }
        return " " + size(bytes) + (step.bytesPerSecond.map { " " + size($0) + "/s" } ?? "")
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
