import Foundation

/// Turns the bytes `git clone --progress` writes to stderr into ``CloneEvent``s.
///
/// git rewrites a progress line in place with `\r` and ends it with `\n` (or `, done.\n`), so
/// both end a line here. Lines look like
/// `remote: Counting objects:  45% (1350/3000)` or
/// `Receiving objects:  35% (1050/3000), 1.20 MiB | 2.40 MiB/s, done.`.
public struct GitProgressParser: Sendable {
    private var pending: [UInt8] = []
    /// The last lines that were not progress, for naming the cause of a failure.
    public private(set) var recentMessages: [String] = []

    /// A parser with nothing read yet.
    public init() {}

    /// Takes the next stderr bytes; returns the events of every line they complete.
    public mutating func consume(_ bytes: [UInt8]) -> [CloneEvent] {
        var events: [CloneEvent] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") {
                if let event = takeLine() { events.append(event) }
            } else {
                pending.append(byte)
            }
        }
        return events
    }

    /// The event of an unterminated last line, if any.
    public mutating func finish() -> [CloneEvent] {
        takeLine().map { [$0] } ?? []
    }

    private mutating func takeLine() -> CloneEvent? {
        defer { pending.removeAll(keepingCapacity: true) }
        var line = String(decoding: pending, as: UTF8.self)
        if line.hasPrefix("remote: ") { line.removeFirst(8) }
        line = line.trimmingCharacters(in: .whitespaces)
        guard !line.isEmpty else { return nil }
        if let progress = Self.parse(line) { return .progress(progress) }
        recentMessages.append(line)
        if recentMessages.count > 20 { recentMessages.removeFirst() }
        return .message(line)
    }

    /// Parses one progress line; nil for any other line.
    public static func parse(_ line: String) -> CloneProgress? {
        guard let colon = line.range(of: ": "),
            let phase = phase(named: line[..<colon.lowerBound])
        else { return nil }
        var rest = line[colon.upperBound...].trimmingCharacters(in: .whitespaces)[...]
        var progress = CloneProgress(phase: phase, completed: 0)
        if rest.hasSuffix(", done.") {
            progress.isDone = true
            rest = rest.dropLast(7)
        }
        let parts = rest.components(separatedBy: ", ")
        guard let counts = parts.first, parseCounts(counts, into: &progress) else { return nil }
        if parts.count > 1 { parseTransfer(parts[1], into: &progress) }
        return progress
    }

    private static func phase(named label: Substring) -> ClonePhase? {
        if label == "Checking out files" { return .checkingOut }
        return ClonePhase.allCases.first { $0.label == label }
    }

    /// `45% (1350/3000)` or `3005` (a count without a total).
    private static func parseCounts(_ text: String, into progress: inout CloneProgress) -> Bool {
        if let count = Int(text) {
            progress.completed = count
            return true
        }
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 2, words[0].hasSuffix("%"), let percent = Int(words[0].dropLast()),
            words[1].hasPrefix("("), words[1].hasSuffix(")")
        else { return false }
        let fraction = words[1].dropFirst().dropLast().split(separator: "/")
        guard fraction.count == 2, let done = Int(fraction[0]), let total = Int(fraction[1]) else { return false }
        progress.percent = percent
        progress.completed = done
        progress.total = total
        return true
    }

    /// `1.20 MiB | 2.40 MiB/s`.
    private static func parseTransfer(_ text: String, into progress: inout CloneProgress) {
        let halves = text.components(separatedBy: " | ")
        progress.bytes = byteCount(halves[0])
        if halves.count > 1, halves[1].hasSuffix("/s") { progress.bytesPerSecond = byteCount(String(halves[1].dropLast(2))) }
    }

    private static func byteCount(_ text: String) -> Int64? {
        let words = text.split(separator: " ")
        guard words.count == 2, let value = Double(words[0]) else { return nil }
        let scale: Double
        switch words[1] {
        case "bytes", "byte": scale = 1
        case "KiB": scale = 1024
        case "MiB": scale = 1024 * 1024
        case "GiB": scale = 1024 * 1024 * 1024
        case "TiB": scale = 1024 * 1024 * 1024 * 1024
        default: return nil
        }
        return Int64((value * scale).rounded())
    }
}
