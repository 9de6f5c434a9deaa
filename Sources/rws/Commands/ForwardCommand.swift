import ArgumentParser
import Foundation
import SSHClient

struct ForwardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forward",
        abstract: "Open a port of the box here: a local port whose connections go to it, as ssh -L does.",
        discussion: """
            PORT is the port on the box (a dev server's 3000). rws listens on 127.0.0.1 only: the same port number when it \
            is free here, else a free one; LOCAL:PORT asks for LOCAL exactly (0:PORT for any free one). The first line on \
            stdout is the local URL (http://127.0.0.1:LOCAL), so a script can read it.

            Each connection gets its own channel over the one SSH connection, many at once. When the link drops, rws \
            reconnects by itself and the local port stays open: connections under way end, new ones wait for the link. \
            A connection the box refuses (nothing listening on PORT) is closed and said on stderr. --to connects from the \
            box to another host it reaches (a database on its network).

            --auto watches the box's listening ports (rws ports, every 2 s) and forwards each one that starts listening \
            from now on, printing a line per port on stdout (URL, tab, the box's port and its process), and closes it \
            when it stops listening; ports already listening are left alone (rws forward PORT opens one).

            -R (--reverse) goes the other way, as ssh -R: the box listens on its 127.0.0.1:BOX and each connection \
            made there comes here to 127.0.0.1:PORT (--to another host here). -R PORT asks the box for the same number \
            (a free one when it is taken), -R BOX:PORT for BOX exactly (0:PORT for any); the first line on stdout is \
            the URL on the box (http://127.0.0.1:BOX), for Claude Code there to reach a service running here. After a \
            dropped link rws asks the box again for the same port.

            Runs until Ctrl+C (or SIGTERM, SIGHUP), then closes the port and exits 128+N (130 for Ctrl+C); 64 for a \
            port here that is taken or out of range; 1 when the box refuses to listen (-R); 255 when the connection failed.

            Examples:
              rws forward --host box 3000
              rws forward --host box 8080:3000
              rws forward --host box 5432 --to db.internal
              rws forward --host box --auto
              rws forward --host box -R 8080
              rws forward --host box -R 9000:8080 --to 192.168.1.20
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The port on the box, or LOCAL:PORT (with -R: the port here, or BOX:PORT).", valueName: "[local:]port"))
    var spec: String?

    @Option(
        name: .long,
        help: ArgumentHelp("The host the box connects to (default its own 127.0.0.1); with -R, the host here.", valueName: "host"))
    var to = "127.0.0.1"

    @Flag(name: [.customShort("R"), .long], help: "The other way, as ssh -R: a port on the box whose connections come here.")
    var reverse = false

    @Flag(name: .long, help: "Forward each port that starts listening on the box from now on, and stop when it closes.")
    var auto = false

    /// The local port asked for (nil: the remote port's number if free, else any) and the remote one.
    static func parse(_ spec: String) throws -> (local: Int?, remote: Int) {
        let parts = spec.split(separator: ":", omittingEmptySubsequences: false)
        let ports = parts.map { Int($0) }
        guard (1...2).contains(parts.count), ports.allSatisfy({ $0 != nil }), let remote = ports.last!, (1...65535).contains(remote),
            parts.count == 1 || (0...65535).contains(ports[0]!)
        else {
            throw ValidationError("\"\(spec)\" is not a port: give the port on the box (3000) or LOCAL:PORT (8080:3000), from 1 to 65535")
        }
        return (parts.count == 2 ? ports[0] : nil, remote)
    }

    func validate() throws {
        switch (spec, auto) {
        case (let spec?, false): _ = try Self.parse(spec)
        case (nil, true): break
        case (_?, true): throw ValidationError("give a port or --auto, not both")
        case (nil, false): throw ValidationError("give the port on the box to forward (rws forward 3000), or --auto")
        }
        if to.isEmpty { throw ValidationError("--to needs a host name or address") }
        if auto, to != "127.0.0.1" { throw ValidationError("--auto forwards the box's own ports: --to does not go with it") }
        if auto, reverse { throw ValidationError("--auto forwards the box's ports here: -R does not go with it") }
    }

    func run() async throws {
        try await runReportingErrors {
            try await connection.withConnection(reconnect: ReconnectPolicy(maximumDelay: .seconds(15), waitForConnection: .seconds(60))) {
                ssh in
                let ending = EndingSignal()
                let (done, finish) = AsyncStream.makeStream(of: Void.self)
                let handler = ending.handle { finish.finish() }
                defer { handler.remove() }
                let states = Task { await Self.reportLinkChanges(of: ssh) }
                defer { states.cancel() }
                if auto {
                    let following = Task { await AutoForwarding(ssh: ssh).run() }
                    for await _ in done {}
                    following.cancel()
                    await following.value
                } else if reverse {
                    let (box, here) = try Self.parse(spec ?? "")
                    let forward = try await Self.listenOnBox(ssh, port: box, to: here, host: to)
                    Terminal.out("http://127.0.0.1:\(forward.remotePort)\n")
                    let target = "\(to.safeLine):\(here) here"
                    Terminal.err(
                        "rws: forwarding 127.0.0.1:\(forward.remotePort) on \(ssh.configuration.host) to \(target) (Ctrl+C stops)\n")
                    let failures = Task { for await failure in forward.failures { Terminal.err("rws: \(failure.description.safeLine)\n") } }
                    for await _ in done {}
                    forward.close()
                    failures.cancel()
                } else {
                    let (local, remote) = try Self.parse(spec ?? "")
                    let forward = try Self.listen(on: ssh, local: local, remote: remote, host: to)
                    Terminal.out("http://127.0.0.1:\(forward.localPort)\n")
                    let target = "\(to.safeLine):\(remote) on \(ssh.configuration.host)"
                    Terminal.err("rws: forwarding 127.0.0.1:\(forward.localPort) to \(target) (Ctrl+C stops)\n")
                    let failures = Task { await Self.reportFailures(of: forward) }
                    for await _ in done {}
                    forward.close()
                    await failures.value
                }
                return ending.number.map { 128 + $0 } ?? 0
            }
        }
    }

    /// Says on stderr why each connection could not be carried, until the forward closes.
    static func reportFailures(of forward: PortForward) async {
        for await failure in forward.failures { Terminal.err("rws: \(failure.description.safeLine)\n") }
    }

    /// Says on stderr when the link drops and when it is back.
    private static func reportLinkChanges(of ssh: SSHConnection) async {
        var lost = false
        for await state in ssh.states() {
            switch state {
            case .reconnecting(let attempt, _, let reason) where attempt == 1 && !lost:
                lost = true
                Terminal.err("rws: link lost (\(reason.safeLine)); reconnecting, the local ports stay open\n")
            case .connected where lost:
                lost = false
                Terminal.err("rws: link back\n")
            default:
                break
            }
        }
    }

    /// Without a port asked for on the box: the same number as here when the box gives it, else any.
    /// The box's refusal exits 1: the link is fine, the port is not.
    static func listenOnBox(_ ssh: SSHConnection, port: Int?, to here: Int, host: String) async throws -> RemotePortForward {
        do {
            if let port { return try await ssh.forwardRemote(port: port, to: here, host: host) }
            if let same = try? await ssh.forwardRemote(port: here, to: here, host: host) { return same }
            return try await ssh.forwardRemote(port: 0, to: here, host: host)
        } catch SSHError.channelFailed(let operation, let reason) {
            throw CLIError.failed("\(operation) failed: \(reason); choose another port (0:\(here) for any)", code: 1)
        }
    }

    /// A local port that cannot be listened on is a usage error (exit 64): another one will do.
    /// Without one asked for: the remote port's number when it is free here, else any.
    static func listen(on ssh: SSHConnection, local: Int?, remote: Int, host: String) throws -> PortForward {
        do {
            if let local { return try ssh.forwardLocal(port: local, to: remote, host: host) }
            return try (try? ssh.forwardLocal(port: remote, to: remote, host: host)) ?? ssh.forwardLocal(port: 0, to: remote, host: host)
        } catch let error as SSHError {
            throw CLIError.usage(error.description)
        }
    }
}
