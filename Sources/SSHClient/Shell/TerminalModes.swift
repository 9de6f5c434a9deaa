/// Terminal modes sent with a PTY request, encoded as RFC 4254 section 8 says.
///
/// Each setting is an opcode and a 32-bit value; the encoding ends with `TTY_OP_END` (0).
/// The server applies them to the remote terminal before the program starts.
public struct TerminalModes: Sendable, Equatable {
    /// The settings in the order they are sent.
    public var settings: [(mode: TerminalMode, value: UInt32)]

    /// Modes with the given settings.
    public init(_ settings: [(mode: TerminalMode, value: UInt32)]) {
        self.settings = settings
    }

    /// No settings: the server keeps its own defaults.
    public static let serverDefaults = TerminalModes([])

    /// What an interactive xterm-like terminal uses: Ctrl+C interrupts, Backspace (0x7F) erases,
    /// Enter's CR becomes NL, output NL becomes CR NL, echo and line editing on, UTF-8 input.
    /// Flow control (Ctrl+S/Ctrl+Q) is off so a stray Ctrl+S cannot freeze the screen.
    public static let interactive = TerminalModes([
        (.vintr, 3), (.vquit, 28), (.verase, 127), (.vkill, 21), (.veof, 4), (.vsusp, 26),
        (.vwerase, 23), (.vlnext, 22), (.vreprint, 18), (.vstart, 17), (.vstop, 19),
        (.icrnl, 1), (.ixon, 0), (.iutf8, 1),
        (.isig, 1), (.icanon, 1), (.iexten, 1), (.echo, 1), (.echoe, 1), (.echok, 1), (.echoctl, 1), (.echoke, 1),
        (.opost, 1), (.onlcr, 1), (.cs8, 1),
        (.inputSpeed, 38400), (.outputSpeed, 38400),
    ])

    /// The RFC 4254 byte encoding: opcode byte, uint32 big-endian value, ..., `TTY_OP_END`.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        for (mode, value) in settings {
            bytes.append(mode.rawValue)
            bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        bytes.append(0)
        return bytes
    }

    public static func == (lhs: TerminalModes, rhs: TerminalModes) -> Bool {
        lhs.settings.map(\.mode) == rhs.settings.map(\.mode) && lhs.settings.map(\.value) == rhs.settings.map(\.value)
    }
}

/// The terminal mode opcodes of RFC 4254 section 8 (and IUTF8 from RFC 8160).
public enum TerminalMode: UInt8, Sendable, CaseIterable {
    /// Interrupt character (Ctrl+C: 3).
    case vintr = 1
    /// Quit character (Ctrl+\: 28).
    case vquit = 2
    /// Erase the character to the left (127 or 8).
    case verase = 3
    /// Kill the current line (Ctrl+U: 21).
    case vkill = 4
    /// End-of-file character (Ctrl+D: 4).
    case veof = 5
    /// End-of-line character besides NL.
    case veol = 6
    /// A second end-of-line character.
    case veol2 = 7
    /// Resume output (Ctrl+Q: 17).
    case vstart = 8
    /// Pause output (Ctrl+S: 19).
    case vstop = 9
    /// Suspend the foreground job (Ctrl+Z: 26).
    case vsusp = 10
    /// Delayed suspend (Ctrl+Y).
    case vdsusp = 11
    /// Reprint the current line (Ctrl+R: 18).
    case vreprint = 12
    /// Erase the word to the left (Ctrl+W: 23).
    case vwerase = 13
    /// Take the next character literally (Ctrl+V: 22).
    case vlnext = 14
    /// Flush output.
    case vflush = 15
    /// Switch to a different shell layer.
    case vswtch = 16
    /// Print a status line.
    case vstatus = 17
    /// Toggle discarding output.
    case vdiscard = 18
    /// Ignore parity errors.
    case ignpar = 30
    /// Mark parity and framing errors.
    case parmrk = 31
    /// Check parity of input.
    case inpck = 32
    /// Strip the eighth bit of input.
    case istrip = 33
    /// Turn input NL into CR.
    case inlcr = 34
    /// Ignore input CR.
    case igncr = 35
    /// Turn input CR into NL (what makes Enter end a line).
    case icrnl = 36
    /// Lower-case input upper case.
    case iuclc = 37
    /// Output flow control with VSTOP/VSTART.
    case ixon = 38
    /// Any character restarts stopped output.
    case ixany = 39
    /// Input flow control.
    case ixoff = 40
    /// Ring the bell when the input queue is full.
    case imaxbel = 41
    /// Input is UTF-8, so erase removes whole characters (RFC 8160).
    case iutf8 = 42
    /// Generate signals for VINTR, VQUIT, VSUSP.
    case isig = 50
    /// Canonical (line-by-line) input.
    case icanon = 51
    /// Upper-case-only terminal handling.
    case xcase = 52
    /// Echo input.
    case echo = 53
    /// Erase visually on VERASE.
    case echoe = 54
    /// Echo NL after VKILL.
    case echok = 55
    /// Echo NL even without ECHO.
    case echonl = 56
    /// Do not flush queues on interrupt.
    case noflsh = 57
    /// Stop background jobs that write to the terminal.
    case tostop = 58
    /// Extended input processing (VWERASE, VLNEXT, VREPRINT).
    case iexten = 59
    /// Echo control characters as `^X`.
    case echoctl = 60
    /// Erase the line visually on VKILL.
    case echoke = 61
    /// Retype pending input.
    case pendin = 62
    /// Post-process output.
    case opost = 70
    /// Upper-case output.
    case olcuc = 71
    /// Turn output NL into CR NL.
    case onlcr = 72
    /// Turn output CR into NL.
    case ocrnl = 73
    /// No CR output at column 0.
    case onocr = 74
    /// NL performs the CR function.
    case onlret = 75
    /// 7-bit characters.
    case cs7 = 90
    /// 8-bit characters.
    case cs8 = 91
    /// Parity enabled.
    case parenb = 92
    /// Odd parity.
    case parodd = 93
    /// Input speed in bits per second.
    case inputSpeed = 128
    /// Output speed in bits per second.
    case outputSpeed = 129
}
