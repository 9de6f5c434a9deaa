import Foundation
import SSHClient

/// The local terminal joined to a program in a remote PTY, as `rws shell` and `rws claude` run it:
/// raw mode, the bridge, and the exit code for how it ended.
enum RemoteTerminal {
    /// Runs `command` (nil: the login shell) in a remote terminal joined to this one until it ends;
    /// the local settings are back on return.
    static func run(_ command: String?, on ssh: SSHConnection) async throws -> Int32 {
        let terminal = try TerminalState.enterRawMode(fd: STDIN_FILENO)
        defer { terminal.restore() }
        let session = try await ssh.openShell(configuration(terminal, command: command))
        let end = await ShellBridge.run(session, keyboard: Keyboard(fd: STDIN_FILENO), inputFD: STDIN_FILENO, outputFD: STDOUT_FILENO)
        terminal.restore()
        return try report(end, host: ssh.configuration.host)
    }

    /// The remote terminal like this one: type, size and modes.
    static func configuration(_ terminal: TerminalState, command: String? = nil) -> ShellConfiguration {
        let size = LocalTerminal.size(of: STDIN_FILENO)
        let type = ProcessEnvironment.current["TERM"].flatMap { $0.isEmpty || $0 == "dumb" ? nil : $0 } ?? "xterm-256color"
        return ShellConfiguration(
            terminalType: type, columns: size.columns, rows: size.rows,
            modes: LocalTerminal.modes(from: terminal.original), command: command)
    }

    /// The exit code for how the bridge ended, with a line on stderr where one helps.
    static func report(_ end: ShellBridge.End, host: String) throws -> Int32 {
        switch end {
        case .exited(let status):
            return status.shellCode
        case .failed(let error):
            Terminal.err("\n")
            throw error
        case .disconnected:
            Terminal.err("\nConnection to \(host) closed.\n")
            return RWSExitCode.connectionFailed
        case .inputClosed:
            Terminal.err("\nrws: the local terminal closed; disconnected\n")
            return RWSExitCode.connectionFailed
        case .signal(let number):
            Terminal.err("\nrws: got signal \(number); disconnected\n")
            return 128 + number
        }
    }
}
