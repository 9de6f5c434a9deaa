/// OpenSSH's escape character on keyboard input: right after Enter (or at the start), `~.`
/// disconnects, `~?` lists the escapes, `~~` sends one `~`; any other `~x` is sent as typed.
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
                }
            } else if atLineStart, byte == tilde {
                holdingTilde = true
                continue
            }
            outcome.forward.append(byte)
            atLineStart = byte == 0x0D || byte == 0x0A
        }
        return outcome
    }
}
