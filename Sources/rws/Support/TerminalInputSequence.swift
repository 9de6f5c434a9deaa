/// Reads escape sequences in keyboard input, byte by byte across chunks, and tells the ones the
/// terminal sends by itself (replies to a program's queries, mouse and focus reports) from the
/// ones a key sends (arrows, function keys, Alt+key).
///
/// Programs like Claude Code's UI query the terminal as they start and turn on mouse and focus
/// reporting; those bytes arrive on rws's input as if typed. Only typing ends a line for the
/// `~` escapes, so a reply landing between Enter and `~.` must not count.
struct TerminalInputSequence {
    /// What a byte did.
    enum Step: Equatable {
        /// The byte is not part of a sequence.
        case outside
        /// The byte is part of a sequence still being read.
        case inside
        /// The byte ended a sequence; `report` when the terminal sent it by itself.
        case ended(report: Bool)
    }

    private enum State {
        case none
        case escape
        /// `ESC [` and the first byte after it, if any (a report is told by it and the final byte).
        case csi(first: UInt8?)
        /// SS3 (`ESC O`): a key, one more byte.
        case ss3
        /// An X10 mouse report's last bytes (`ESC [ M` and three more).
        case mouse(remaining: Int)
        /// OSC, DCS, APC, PM or SOS: a string up to BEL (OSC) or `ESC \`.
        case string(escapeSeen: Bool)
    }

    private var state = State.none
    /// Bytes read in the current sequence: one longer than any reply is not one.
    private var length = 0

    /// Whether a sequence is being read.
    var isInside: Bool {
        if case .none = state { return false }
        return true
    }

    /// Reads `byte`. CR, LF, CAN and SUB end a sequence unfinished (`.outside`: the byte is read
    /// as itself), so a lone Alt+`]` or Esc never swallows the Enter typed after it.
    mutating func read(_ byte: UInt8) -> Step {
        if case .none = state {
            guard byte == 0x1B else { return .outside }
            state = .escape
            length = 1
            return .inside
        }
        length += 1
        if [0x0D, 0x0A, 0x18, 0x1A].contains(byte) || length > 4096 {
            state = .none
            return .outside
        }
        switch state {
        case .none:
            return .outside
        case .escape:
            switch byte {
            case UInt8(ascii: "["): state = .csi(first: nil)
            case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"), UInt8(ascii: "X"):
                state = .string(escapeSeen: false)
            case UInt8(ascii: "O"): state = .ss3
            default: return finish(report: false)  // Alt+key
            }
            return .inside
        case .csi(let first):
            guard (0x40...0x7E).contains(byte) else {
                state = .csi(first: first ?? byte)
                return .inside
            }
            if first == nil, byte == UInt8(ascii: "M") {
                state = .mouse(remaining: 3)
                return .inside
            }
            return finish(report: Self.isReport(first: first, final: byte))
        case .ss3:
            return finish(report: false)
        case .mouse(let remaining):
            guard remaining == 1 else {
                state = .mouse(remaining: remaining - 1)
                return .inside
            }
            return finish(report: true)
        case .string(let escapeSeen):
            if byte == 0x07 || (escapeSeen && byte == UInt8(ascii: "\\")) { return finish(report: true) }
            state = .string(escapeSeen: byte == 0x1B)
            return .inside
        }
    }

    private mutating func finish(report: Bool) -> Step {
        state = .none
        return .ended(report: report)
    }

    /// CSI sequences only a terminal sends: SGR mouse (`<…M`, `<…m`), focus (`I`, `O`), device
    /// attributes (`?…c`, `>…c`), keyboard flags (`?…u`), status and mode reports (`?…n`,
    /// `?…$y`), the extended cursor position (`?…R`).
    private static func isReport(first: UInt8?, final: UInt8) -> Bool {
        switch final {
        case UInt8(ascii: "I"), UInt8(ascii: "O"): return first == nil
        case UInt8(ascii: "M"), UInt8(ascii: "m"): return first == UInt8(ascii: "<")
        case UInt8(ascii: "c"): return first == UInt8(ascii: "?") || first == UInt8(ascii: ">")
        case UInt8(ascii: "u"), UInt8(ascii: "n"), UInt8(ascii: "y"), UInt8(ascii: "R"): return first == UInt8(ascii: "?")
        default: return false
        }
    }
}
