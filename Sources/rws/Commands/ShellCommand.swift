import ArgumentParser
import Foundation
import SSHClient

struct ShellCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shell",
        abstract: "Open an interactive shell on the box in this terminal.",
        discussion: """
            Your terminal is switched to raw mode and joined to a terminal (PTY) on the box: every key, Ctrl+C and Ctrl+\\ \
            included, goes to the remote programs; the remote size follows your window. Your terminal settings are restored \
            however rws ends.

            Escapes, typed right after Enter: ~. disconnects, ~? lists the escapes, ~~ sends a ~.

            Without a local terminal (stdin piped), the shell or --command runs without a PTY, reading stdin, as ssh -T does; rws \
            says so on stderr.

            Persistent shells (--persist [NAME], default name "rws") live in a tmux session on the box (GNU screen where tmux is \
            missing), created on first use: when the link drops or the laptop sleeps, the programs keep running, and rws \
            reconnects and reattaches to the same screen by itself. ~. detaches and leaves them running; --list-persistent shows \
            them, --kill-persistent NAME ends one.

            Exit status: the remote shell's (128+N when a signal killed it); 255 after ~. or when the connection failed; 128+N \
            when rws itself got signal N (SIGTERM, SIGHUP, SIGQUIT, SIGINT).

            Examples:
              rws shell --host me@box
              rws shell --host box --persist work
              rws shell --host box --list-persistent
              rws shell --host box --kill-persistent work
              rws shell --host box --command 'htop'
              echo 'uname -a' | rws shell --host box
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Run this command line in the remote terminal instead of the login shell.",
            valueName: "command"))
    var command: String?

    @Flag(
        name: .long,
        help: "Attach to a persistent shell on the box (tmux or screen), created on first use; reattach after a dropped link.")
    var persist = false

    @Argument(help: ArgumentHelp("The persistent shell's name (with --persist; default rws).", valueName: "name"))
    var name: String?

    @Flag(name: .long, help: "List the persistent shells on the box and exit.")
    var listPersistent = false

    @Option(name: .long, help: ArgumentHelp("End the persistent shell NAME and every program in it, then exit.", valueName: "name"))
    var killPersistent: String?

    func validate() throws {
        if name != nil, !persist { throw ValidationError("a shell name goes with --persist: rws shell --persist \(name!)") }
        if persist, command != nil {
            throw ValidationError("--persist and --command do not go together: a persistent shell runs your login shell in tmux or screen")
        }
        let modes = [persist, listPersistent, killPersistent != nil].filter { $0 }.count
        if modes > 1 { throw ValidationError("give one of --persist, --list-persistent and --kill-persistent") }
    }

    func run() async throws {
        if listPersistent || killPersistent != nil { return await managePersistent() }
        if persist { return await runPersistent(named: name ?? "rws") }
        await runReportingErrors {
            try await connection.withConnection { ssh in
                guard Terminal.isTTY(STDIN_FILENO) else {
                    Terminal.err("rws: stdin is not a terminal: running without a remote terminal (no PTY)\n")
                    return try await ExecCommand.execute(command ?? ShellConfiguration.loginShellCommand, on: ssh, timeout: nil).shellCode
                }
                return try await RemoteTerminal.run(command, on: ssh)
            }
        }
    }
}

extension ShellCommand {
    /// A persistent shell: attach, and after a lost link wait for the reconnect and attach again,
    /// until the shell ends, ~. detaches, or the connection is gone for good.
    private func runPersistent(named name: String) async {
        await runReportingErrors {
            guard Terminal.isTTY(STDIN_FILENO) else {
                throw CLIError.usage("--persist needs a terminal: stdin is not one")
            }
            return try await connection.withConnection(reconnect: ReconnectPolicy(waitForConnection: .seconds(300))) { ssh in
                let terminal = try TerminalState.enterRawMode(fd: STDIN_FILENO)
                defer { terminal.restore() }
                let keyboard = Keyboard(fd: STDIN_FILENO)
                let host = ssh.configuration.host
                let open: @Sendable () async throws -> InteractiveShell = {
                    try await ssh.openPersistentShell(named: name, RemoteTerminal.configuration(terminal))
                }
                var shell = try await open()
                while true {
                    let end = await ShellBridge.run(shell, keyboard: keyboard, inputFD: STDIN_FILENO, outputFD: STDOUT_FILENO)
                    guard case .failed(SSHError.connectionLost(let reason)) = end else {
                        return try Self.leave(name, end, terminal: terminal, host: host)
                    }
                    Terminal.err("\r\nrws: link lost (\(reason)); reattaching to \(name) when the box is back… (~. gives up)\r\n")
                    switch try await ShellBridge.waitForShell(keyboard: keyboard, open) {
                    case .opened(let next): shell = next
                    case .gaveUp(let end): return try Self.leave(name, end, terminal: terminal, host: host, linkDown: true)
                    }
                }
            }
        }
    }

    /// Restores the terminal and says how the persistent shell was left. With the link down, rws
    /// cannot see the box: it says only what held when the link dropped.
    private static func leave(
        _ name: String, _ end: ShellBridge.End, terminal: TerminalState, host: String, linkDown: Bool = false
    ) throws -> Int32 {
        terminal.restore()
        guard case .disconnected = end else { return try RemoteTerminal.report(end, host: host) }
        let state = linkDown ? "it was running on \(host) when the link dropped" : "it keeps running on \(host)"
        Terminal.err("\nDetached from \(name); \(state) (rws shell --persist \(name)).\n")
        return RWSExitCode.connectionFailed
    }

    /// --list-persistent and --kill-persistent.
    private func managePersistent() async {
        await runReportingErrors {
            try await connection.withConnection { ssh in
                if let name = killPersistent {
                    try await ssh.killPersistentShell(named: name)
                    Terminal.out("ended persistent shell \(name)\n")
                    return 0
                }
                let shells = try await ssh.listPersistentShells()
                if shells.isEmpty { Terminal.err("no persistent shells on \(ssh.configuration.host)\n") }
                for shell in shells {
                    let attached = shell.attachedClients.map { $0 > 0 ? "attached" : "detached" } ?? "-"
                    Terminal.out("\(shell.name.safeLine)\t\(shell.multiplexer.rawValue)\t\(attached)\n")
                }
                return 0
            }
        }
    }
}
