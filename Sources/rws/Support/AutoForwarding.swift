import Foundation
import SSHClient

/// `rws forward --auto`: follows the box's listening ports and forwards each one that appears
/// (the dev server the agent just started), until cancelled. Ports listening when it starts are
/// left alone; a forwarded port that stops listening is closed here too. Its own forwards are
/// never forwarded again (where the box is this machine they show up among its listeners).
struct AutoForwarding {
    let ssh: SSHConnection
    /// How often the box's ports are listed.
    static let interval = Duration.seconds(2)
    /// How long one listing may take before the round counts as failed.
    static let listingLimit = Duration.seconds(30)

    func run() async {
        var known: Set<Int>?
        var forwards: [Int: PortForward] = [:]
        var failing = false
        defer { for forward in forwards.values { forward.close() } }
        while !Task.isCancelled {
            if let listed = await list(failing: &failing) {
                let reachable = listed.filter { $0.isReachableFromTheBox && !Self.isOwn($0, forwards) }
                let ports = Dictionary(reachable.map { ($0.port, $0) }, uniquingKeysWith: { first, _ in first })
                if let before = known {
                    for port in ports.keys.sorted() where !before.contains(port) && forwards[port] == nil {
                        forwards[port] = open(ports[port]!)
                    }
                    for (port, forward) in forwards where ports[port] == nil {
                        forward.close()
                        forwards[port] = nil
                        Terminal.err("rws: \(port) stopped listening on the box; closed 127.0.0.1:\(forward.localPort)\n")
                    }
                } else {
                    let listening = ports.keys.sorted().map(String.init).joined(separator: " ")
                    Terminal.err(
                        "rws: watching \(ssh.configuration.host): forwarding each port that starts listening (Ctrl+C stops); "
                            + (listening.isEmpty ? "none listens now\n" : "left alone, listening already: \(listening)\n"))
                }
                known = Set(ports.keys).union(forwards.keys)
            }
            try? await Task.sleep(for: Self.interval)
        }
    }

    /// The box's ports, or nil when the listing failed (the link is down, the box too busy to
    /// answer in time): the next round tries again. The first failure of a run of them and the
    /// recovery are said, so that a watcher that forwards nothing is never silent about why.
    private func list(failing: inout Bool) async -> [ListeningPort]? {
        do {
            let listed = try await ssh.listeningPorts(timeout: Self.listingLimit)
            if failing { Terminal.err("rws: the box's ports are listed again\n") }
            failing = false
            return listed
        } catch {
            if !failing && !Task.isCancelled {
                let reason = plainDescription(of: error).safeLine
                Terminal.err("rws: could not list the box's ports (\(reason)); trying again every \(Self.interval.components.seconds) s\n")
            }
            failing = true
            return nil
        }
    }

    /// Whether `port` is the local end of one of `forwards`, seen on a box that is this machine:
    /// held by this process, or by an owner the box does not show. A box port that is also a
    /// forwarded one (its own number taken here) is the box's, not ours.
    static func isOwn(_ port: ListeningPort, _ forwards: [Int: PortForward]) -> Bool {
        guard forwards[port.port] == nil, forwards.values.contains(where: { $0.localPort == port.port }) else { return false }
        return port.process.map { $0.pid == Int(ProcessInfo.processInfo.processIdentifier) } ?? true
    }

    /// The forward of `port`, on its own number here when free; its URL on stdout.
    private func open(_ port: ListeningPort) -> PortForward? {
        guard let forward = try? ForwardCommand.listen(on: ssh, local: nil, remote: port.port, host: port.forwardingHost) else {
            Terminal.err("rws: could not listen here for \(port.port)\n")
            return nil
        }
        let owner = port.process.map { " (\($0.command.safeLine))" } ?? ""
        Terminal.out("http://127.0.0.1:\(forward.localPort)\t\(port.port)\(owner)\n")
        Task { await ForwardCommand.reportFailures(of: forward) }
        return forward
    }
}
