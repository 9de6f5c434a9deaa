import ArgumentParser
import Foundation
import SSHClient

struct ShellCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shell",
        abstract: "Open an interactive shell on the box in this terminal.",
        discussion: """
        Your terminal is switched to raw mode and joined to a terminal (PTY) on the box: every key, Ctrl+C and Ctrl+\\ included, goes to the remote programs; the remote size follows your window. Your terminal settings are restored however rws ends.

        Escapes, typed right after Enter: ~. disconnects, ~? lists the escapes, ~~ sends a ~.

        Without a local terminal (stdin piped), the shell or --command runs without a PTY, reading stdin, as ssh -T does; rws says so on stderr.

        Exit status: the remote shell's (128+N when a signal killed it); 255 after ~. or when the connection failed; 128+N when rws itself got signal N (SIGTERM, SIGHUP, SIGQUIT, SIGINT).

        Examples:
          rws shell --host me@box
          rws shell --host box --command 'tmux new -A -s main'
          echo 'uname -a' | rws shell --host box
        """
    )

    @OptionGroup var connection: ConnectionOptions

    @Option(name: .long, help: ArgumentHelp("Run this command line in the remote terminal instead of the login shell.",
                                            valueName: "command"))
    var command: String?

    func run() async throws {
        await runReportingErrors {
            try await connection.withConnection { ssh in
                guard Terminal.isTTY(STDIN_FILENO) else {
                    Terminal.err("rws: stdin is not a terminal: running without a remote terminal (no PTY)\n")
                    return try await ExecCommand.execute(command ?? ShellConfiguration.loginShellCommand, on: ssh, timeout: nil).shellCode
                }
                return try await interact(on: ssh)
            }
        }
    }

    /// Runs the remote terminal in this one until it ends; the local settings are back on return.
    private func interact(on ssh: SSHConnection) async throws -> Int32 {
        let size = LocalTerminal.size(of: STDIN_FILENO)
        let terminal = try TerminalState.enterRawMode(fd: STDIN_FILENO)
        defer { terminal.restore() }
        let type = ProcessInfo.processInfo.environment["TERM"].flatMap { $0.isEmpty || $0 == "dumb" ? nil : $0 } ?? "xterm-256color"
        let session = try await ssh.openShell(ShellConfiguration(
            terminalType: type, columns: size.columns, rows: size.rows,
            modes: LocalTerminal.modes(from: terminal.original.value), command: command))
        let end = await ShellBridge.run(session, inputFD: STDIN_FILENO, outputFD: STDOUT_FILENO)
        terminal.restore()
        switch end {
        case .exited(let status):
            return status.shellCode
        case .failed(let error):
            Terminal.err("\n")
            throw error
        case .disconnected:
            Terminal.err("\nConnection to \(ssh.configuration.host) closed.\n")
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
