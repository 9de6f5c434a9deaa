import ArgumentParser
import Foundation
import SSHClient

struct ExecCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Run a command on the box, streaming its output; exit with its exit status.",
        discussion: """
            The words after -- are joined with spaces and run by the remote login shell, as with ssh: quote for the remote shell. \
            Local stdin is forwarded when it is not a terminal.

            Exit status: the remote command's; 128+N when it was killed by signal N; 124 when --timeout stopped it; 130, 143 or \
            129 when SIGINT (Ctrl+C), SIGTERM or SIGHUP (a closed terminal) stopped it; 125 when a stop left processes running \
            (their PIDs and command lines are printed) or could not be checked; 255 when the connection failed.

            Examples:
              rws exec --host me@box -- uname -a
              rws exec --host box --timeout 2m -- 'cd app && make test'
              tar c src | rws exec --host box -- 'tar x -C /tmp/copy'
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Option(name: .long, help: ArgumentHelp("Stop the command after this long: 90, 30s, 5m, 1h.", valueName: "duration"))
    var timeout: DurationArgument?

    @Argument(parsing: .postTerminator, help: "The command to run on the box, after --.")
    var command: [String] = []

    func validate() throws {
        guard !command.isEmpty else { throw ValidationError("give the command to run after --, e.g. rws exec --host box -- uname -a") }
    }

    func run() async throws {
        let line = command.joined(separator: " ")
        try await runReportingErrors {
            do {
                return try await connection.withConnection { ssh in
                    try await Self.execute(line, on: ssh, timeout: timeout?.duration).shellCode
                }
            } catch let lost as LostCommandStop {
                return try await lost.run(connection)
            }
        }
    }

    /// Streams the command's output to the local stdout/stderr, forwarding stdin; SIGINT, SIGTERM
    /// and SIGHUP stop it (see ``EndingSignal``).
    static func execute(_ line: String, on ssh: SSHConnection, timeout: Duration?) async throws -> ExitStatus {
        let started = ContinuousClock.now
        let remote = try ssh.stream(line, timeout: timeout)
        let ending = EndingSignal()
        let interrupt = ending.handle { remote.cancel() }
        defer { interrupt.remove() }
        let forwarder = Terminal.isTTY(STDIN_FILENO) ? nil : StdinForwarder.start(to: remote)
        if forwarder == nil { try await remote.closeInput() }
        do {
            for try await event in remote.output {
                switch event {
                case .stdout(let bytes): Terminal.write(bytes, to: STDOUT_FILENO)
                case .stderr(let bytes): Terminal.write(bytes, to: STDERR_FILENO)
                }
            }
            forwarder?.cancel()
            return try await remote.exitStatus()
        } catch {
            forwarder?.cancel()
            // Its timeout still holds: the caller reconnects to stop it (see LostCommandStop).
            if let loss = error as? SSHError, case .connectionLost = loss, let timeout, let pid = remote.processID, ending.number == nil {
                let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
                let text = milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
                throw LostCommandStop(command: line, pid: pid, deadline: started + timeout, timeout: text, loss: loss)
            }
            throw ending.reporting(error)
        }
    }
}
