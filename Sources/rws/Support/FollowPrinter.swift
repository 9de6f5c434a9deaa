import Foundation
import RemoteWorkspace
import SessionHistory

/// Prints a followed session as it grows: each new entry rendered on its own; when an entry
/// changes (another chunk of a response, a tool result), its lines from the first changed one.
/// An entry of the loaded conversation the follow goes on from counts as printed as it was loaded.
struct FollowPrinter {
    let format: ExportFormat
    let options: RenderOptions
    private var printed: [Int: [Substring]] = [:]
    private var loaded: [ConversationEntry]
    private var provider: String?

    init(format: ExportFormat, options: RenderOptions, continuing loaded: [ConversationEntry] = []) {
        self.format = format
        var options = options
        options.title = nil
        self.options = options
        self.loaded = loaded
    }

    private func lines(of entry: ConversationEntry) -> [Substring] {
        Conversation(entries: [entry]).render(format, options: options).split(separator: "\n", omittingEmptySubsequences: false)
    }

    mutating func print(_ event: SessionFollowEvent) {
        switch event {
        case .conversation(.added(let entry, let index)), .conversation(.updated(let entry, let index)):
            let lines = lines(of: entry)
            let old = printed[index] ?? (loaded.indices.contains(index) ? self.lines(of: loaded[index]) : [])
            let common = zip(old, lines).prefix { $0 == $1 }.count
            printed[index] = lines
            let fresh = lines.dropFirst(common).joined(separator: "\n")
            if !fresh.isEmpty { Terminal.out(fresh + (fresh.hasSuffix("\n") ? "" : "\n")) }
        case .conversation(.metadata(let record)):
            guard let value = record.value.map({ TerminalText.neutralize($0, keepingLineBreaks: false) }) else { break }
            switch record.kind {
            case .continuedIn:
                Terminal.out("— continued in session \(value) (rws history \(value) --follow)\n")
            case .apiRequestRoute:
                // Written after every turn: said when the backend changes only.
                if provider != value { Terminal.out("— served by: \(value)\n") }
                provider = value
            default:
                Terminal.out("— \(record.kind.rawValue): \(value)\n")
            }
        case .restarted(let reason):
            printed = [:]
            loaded = []
            Terminal.out("— the session file was \(reason); showing it again from the start\n")
        case .fileMissing:
            Terminal.out("— the session file is gone; waiting for it to come back\n")
        case .boxOutOfDescriptors:
            Terminal.err(
                "rws: the box is out of file descriptors, so its shell cannot read the session: rws tries again every 2 s "
                    + "and goes on where it was. End what holds many files open there, or raise its limit (ulimit -n)\n")
        }
    }
}
