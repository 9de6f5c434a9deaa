/// OpenSSH's escape character on keyboard input: right after Enter (or at the start), `~.`
/// disconnects, `~?` lists the escapes, `~~` sends one `~`; any other `~x` is sent as typed.
///
/// Unlike OpenSSH, what the terminal sends by itself (a reply to a program's query, a mouse or
/// focus report: ``TerminalInputSequence``) does not count as typing: Claude Code's UI turns on
/// mouse reporting and queries the terminal, and a mouse moved between Enter and `~.` made
/// the escape plain text.
struct EscapeFilter {
    /// What to do with a chunk of keyboard input.
    struct Outcome: Equatable {
        /// Bytes for the remote terminal.
        var forward: [UInt8] = []
        /// `~.` was typed: disconnect (bytes after it are dropped).
        var disconnect = false
        /// `~?` was typed: show the help.
        var showHelp = false
    }

    static let help =
        "Supported escape sequences:\r\n ~.   - terminate connection\r\n ~?   - this message\r\n"
        + " ~~   - send the escape character by typing it twice\r\n(Note that escapes are only recognized immediately after newline.)\r\n"

    private var atLineStart = true
    private var holdingTilde = false
    private var sequence = TerminalInputSequence()
    /// ``atLineStart`` before the sequence being read, which a report leaves as it was.
    private var atLineStartBeforeSequence = false

    mutating func feed(_ bytes: [UInt8]) -> Outcome {
        var outcome = Outcome()
        let tilde = UInt8(ascii: "~")
        for byte in bytes {
            if holdingTilde {
                holdingTilde = false
                switch byte {
                case UInt8(ascii: "."):
                    outcome.disconnect = true
                    return outcome
                case UInt8(ascii: "?"):
                    outcome.showHelp = true
                    continue  // still at the start of a line
                case tilde:
                    outcome.forward.append(tilde)
                    atLineStart = false
                    continue
                default:
                    outcome.forward.append(tilde)
                    atLineStart = false
                }
            } else if atLineStart, byte == tilde {
                holdingTilde = true
                continue
            }
            outcome.forward.append(byte)
            let wasInside = sequence.isInside
            switch sequence.read(byte) {
            case .outside: atLineStart = byte == 0x0D || byte == 0x0A
            case .inside:
                if !wasInside { atLineStartBeforeSequence = atLineStart }
                atLineStart = false
            case .ended(let report): atLineStart = report && atLineStartBeforeSequence
            }
        }
        return outcome
    }
}
