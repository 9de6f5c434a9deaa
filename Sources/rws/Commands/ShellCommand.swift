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
        if listPersistent || killPersistent != nil {
            return try await PersistentTerminal.manage(kill: killPersistent, connection: connection)
        }
        if persist {
            let name = name ?? "rws"
            // After a lost link only the running session is attached again: one ended meanwhile
            // (--kill-persistent from elsewhere) is not started afresh, unseen.
            return try await PersistentTerminal.run(name, connection: connection, resume: "rws shell --persist \(name)") {
                ssh, configuration, reattaching in
                try await ssh.openPersistentShell(named: name, opening: reattaching ? .attachOnly : .attachOrCreate, configuration)
            }
        }
        try await runReportingErrors {
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
