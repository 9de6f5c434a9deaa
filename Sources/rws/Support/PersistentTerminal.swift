import Foundation
import SSHClient

/// A persistent terminal session on the box (tmux or screen) joined to this terminal: `rws shell
/// --persist` and `rws claude --persist` alike. After a lost link rws waits for the reconnect and
/// attaches again, until the session ends, `~.` detaches, or the connection is gone for good.
enum PersistentTerminal {
    /// Opens the session on `ssh` with the terminal's configuration (its size now); `reattaching`
    /// after a lost link.
    typealias Open =
        @Sendable (_ ssh: SSHConnection, _ configuration: ShellConfiguration, _ reattaching: Bool) async throws -> InteractiveShell

    /// Attaches to session `name` with `open` and stays attached; `resume` is the command line that
    /// comes back to it, said when rws detaches.
    static func run(_ name: String, connection: ConnectionOptions, resume: String, open: @escaping Open) async throws {
        try await runReportingErrors {
            guard Terminal.isTTY(STDIN_FILENO) else {
                throw CLIError.usage("a persistent session needs a terminal, and stdin is not one: run this in a terminal")
            }
            return try await connection.withConnection(reconnect: ReconnectPolicy(waitForConnection: .seconds(300))) { ssh in
                let terminal = try TerminalState.enterRawMode(fd: STDIN_FILENO)
                defer { terminal.restore() }
                let keyboard = Keyboard(fd: STDIN_FILENO)
                let leaving = Leaving(name: name, host: ssh.configuration.host, resume: resume, terminal: terminal)
                var shell = try await open(ssh, RemoteTerminal.configuration(terminal), false)
                while true {
                    let end = await ShellBridge.run(shell, keyboard: keyboard, inputFD: STDIN_FILENO, outputFD: STDOUT_FILENO)
                    if case .exited = end {
                        // tmux and screen end with 0: the command's own status was kept on the box.
                        let kept = try? await ssh.takePersistentShellExitStatus(named: name)
                        return try leaving.report(kept.flatMap { $0 }.map { .exited(.exited($0)) } ?? end)
                    }
                    guard case .failed(SSHError.connectionLost(let reason)) = end else { return try leaving.report(end) }
                    Terminal.err("\r\nrws: link lost (\(reason)); reattaching to \(name) when the box is back… (~. gives up)\r\n")
                    do {
                        switch try await ShellBridge.waitForShell(
                            keyboard: keyboard, { try await open(ssh, RemoteTerminal.configuration(terminal), true) })
                        {
                        case .opened(let next): shell = next
                        case .gaveUp(let end): return try leaving.report(end, linkDown: true)
                        }
                    } catch SSHError.persistentShellNotFound {
                        return leaving.endedMeanwhile()
                    }
                }
            }
        }
    }

    /// How the session was left, said after the terminal is restored. With the link down, rws
    /// cannot see the box: it says only what held when the link dropped.
    private struct Leaving {
        let name: String
        let host: String
        let resume: String
        let terminal: TerminalState

        func report(_ end: ShellBridge.End, linkDown: Bool = false) throws -> Int32 {
            terminal.restore()
            guard case .disconnected = end else { return try RemoteTerminal.report(end, host: host) }
            let state = linkDown ? "it was running on \(host) when the link dropped" : "it keeps running on \(host)"
            Terminal.err("\nDetached from \(name); \(state) (\(resume)).\n")
            return RWSExitCode.connectionFailed
        }

        func endedMeanwhile() -> Int32 {
            terminal.restore()
            Terminal.err("\nrws: \(name) ended on \(host) while the link was down\n")
            return RWSExitCode.failure
        }
    }

    /// `--list-persistent` (no `kill`) or `--kill-persistent NAME`.
    static func manage(kill: String?, connection: ConnectionOptions) async throws {
        try await runReportingErrors {
            try await connection.withConnection { ssh in
                if let name = kill {
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
