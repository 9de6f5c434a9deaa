/// What to ask for when opening a ``InteractiveShell``: the terminal and the program in it.
public struct ShellConfiguration: Sendable {
    /// The `TERM` the remote programs see, e.g. `xterm-256color`.
    public var terminalType: String
    /// Terminal width in character cells.
    public var columns: Int
    /// Terminal height in character cells.
    public var rows: Int
    /// Terminal modes applied before the program starts.
    public var modes: TerminalModes
    /// A command line to run in the terminal instead of the login shell (run by the login shell,
    /// like ``SSHConnection/run(_:input:timeout:idempotent:)``); nil starts `$SHELL -l`.
    public var command: String?
    /// How many unread output bytes may wait before the channel pauses.
    public var bufferSize: Int

    /// A configuration; the defaults give an 80×24 `xterm-256color` login shell.
    public init(
        terminalType: String = "xterm-256color", columns: Int = 80, rows: Int = 24,
        modes: TerminalModes = .interactive, command: String? = nil, bufferSize: Int = 1 << 20
    ) {
        self.terminalType = terminalType
        self.columns = columns
        self.rows = rows
        self.modes = modes
        self.command = command
        self.bufferSize = bufferSize
    }

    /// How rws starts the user's login shell: `exec "${SHELL:-/bin/sh}" -l`.
    public static let loginShellCommand = #"exec "${SHELL:-/bin/sh}" -l"#

    /// The exec request's command line: the PID report (so ``InteractiveShell/close()`` can end the
    /// whole terminal session), then the program.
    var commandLine: String {
        StoppableCommand.wrap(command ?? Self.loginShellCommand, onTerminal: true)
    }

    /// Throws when libssh2 or the protocol cannot carry these values.
    func validate() throws(SSHError) {
        guard (1...10_000).contains(columns), (1...10_000).contains(rows) else {
            throw .invalidArgument("terminal size \(columns)x\(rows) is out of range: give 1 to 10000 columns and rows")
        }
        guard !terminalType.isEmpty, terminalType.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .invalidArgument("terminal type \(terminalType.debugDescription) must be printable ASCII without spaces")
        }
        // libssh2 1.10 refuses a PTY request whose terminal type and modes exceed 256 bytes.
        guard terminalType.utf8.count + modes.encoded.count <= 256 else {
            throw .invalidArgument("terminal type and modes take more than 256 bytes: use fewer modes or a shorter type")
        }
        guard bufferSize > 0 else { throw .invalidArgument("bufferSize must be positive") }
    }
}
