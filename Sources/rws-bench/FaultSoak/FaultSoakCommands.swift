import Foundation

/// The fault soak's stream of commands: `rws exec --timeout` once a second, each a new
/// connection through the faulty link, each sleeping 0.3 s on the box. Every one must end in
/// one of the ways rws promises, and its processes must be gone from the box.
enum FaultSoakCommands {
    static func run(_ context: FaultSoak.Context, ledger: FaultSoakLedger) async {
        var number = 0
        var unsettled: [String] = []
        while ContinuousClock.now < context.end - .seconds(5) {
            number += 1
            let began = ContinuousClock.now
            let marker = "\(context.marker)-command-\(number)"
            let command = ": \(marker); echo out-\(number); sleep 0.3"
            do {
                let process = try RWSProcess(
                    context.rws, ["exec", "--timeout", "\(context.options.commandTimeout)s"] + context.flags + ["--", command],
                    home: context.home)
                // A connect into a black hole waits for the handshake timeout: give it the hole and more.
                guard let outcome = await process.wait(within: .seconds(context.options.blackHoleLength + 60)) else {
                    ledger.fail("command \(number): rws exec did not end within \(Int(context.options.blackHoleLength + 60)) s")
                    continue
                }
                let kind = classify(outcome, number: number)
                ledger.update { $0.commands[kind ?? "unexplained", default: 0] += 1 }
                switch kind {
                case "completed", "stopped":
                    // rws said it is over: the box's table must agree (a moment for the exit to settle).
                    let left = await FaultSoak.leftovers(marker)
                    if !left.isEmpty { ledger.fail("command \(number) \(kind!) but still on the box: \(left)") }
                case "lost", "not started":
                    unsettled.append(marker)
                default:
                    ledger.fail(
                        "command \(number): exit \(outcome.status), stdout \(outcome.stdout.debugDescription), "
                            + "stderr \(outcome.stderr.debugDescription)")
                }
            } catch {
                ledger.fail("command \(number): rws could not be started: \(error)")
            }
            try? await Task.sleep(until: began + .seconds(1), clock: .continuous)
        }
        // A command reported lost ends by itself on the box (it sleeps 0.3 s); nothing may remain.
        for marker in unsettled {
            let left = await FaultSoak.leftovers(marker)
            if !left.isEmpty { ledger.fail("a command reported lost is still on the box: \(left)") }
        }
    }

    /// The ways an `rws exec --timeout` may end through a faulty link; nil for any other.
    private static func classify(_ outcome: RWSProcess.Outcome, number: Int) -> String? {
        switch outcome.status {
        case 0 where outcome.stdout == "out-\(number)\n":
            return "completed"
        case 124 where outcome.stderr.contains("stopped"):
            return "stopped"
        case 255 where outcome.stderr.contains("may still be running on the box"):
            return "lost"
        case 255 where !outcome.stdout.contains("out-\(number)") && isConnectFailure(outcome.stderr):
            return "not started"
        default:
            return nil
        }
    }

    /// rws's words for a connection that never carried the command ("cannot connect": the
    /// link reset while the connection was being made; "sent no SSH identification": the proxy
    /// took the connection inside a black hole).
    private static func isConnectFailure(_ stderr: String) -> Bool {
        [
            "cannot connect", "could not connect", "connection failed", "handshake", "timed out", "connection lost", "closed",
            "sent no SSH identification",
        ].contains { stderr.contains($0) }
    }
}
