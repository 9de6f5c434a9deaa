import Foundation
import Platform
import RWSTestSupport

/// The fault soak's forward: one `rws forward` of a port of the box (an echo server) for the
/// whole run, and a client that makes a connection through it every second and checks the echo.
/// Connections made while the link is down fail; the forward must keep its local port, carry
/// every connection of the quiet end, and exit 130 on Ctrl+C.
enum FaultSoakForward {
    static func run(_ context: FaultSoak.Context, ledger: FaultSoakLedger) async {
        do {
            let echo = try EchoServer()
            defer { echo.stop() }
            let forward = try RWSProcess(context.rws, ["forward"] + context.flags + ["0:\(echo.port)"], home: context.home)
            guard let port = await localPort(of: forward) else {
                _ = await forward.wait(within: .seconds(1))
                return ledger.fail("forward: no local URL on stdout")
            }
            var (made, carried, lastFailed) = (0, 0, 0)
            var nextSample = 0.0
            while ContinuousClock.now < context.end - .seconds(5) {
                // Sampled a second after a carried connection: the link works, and that
                // connection's descriptors are closed (sampled at once, they were still open).
                if made > 0, lastFailed != made, seconds(since: context.start) >= nextSample {
                    let sample = ProcessResources.sample(at: seconds(since: context.start), process: "\(forward.pid)")
                    ledger.update { $0.forwardResources.append(sample) }
                    nextSample = seconds(since: context.start) + context.options.sampleEvery
                }
                made += 1
                let payload = Array("exchange-\(made)".utf8)
                let answer = try? await Blocking.onThread { try EchoServer.roundTrip(port: port, payload, limit: .seconds(5)) }
                if answer == payload { carried += 1 } else { lastFailed = made }
                try? await Task.sleep(for: .seconds(1))
            }
            ledger.update { $0.forward = (made, carried) }
            try SystemCall.kill(forward.pid, SIGINT)
            let outcome = await forward.wait(within: .seconds(30))
            ledger.checkInterrupted("forward", outcome)
            // The quiet end (no fault) must carry every connection after the link came back.
            let quietExchanges = Int(context.options.quietSeconds / 4)
            if made - lastFailed < quietExchanges {
                ledger.fail("forward: connection \(lastFailed) of \(made) failed, within the quiet end")
            }
            if outcome.map({ $0.stdout.components(separatedBy: "http://").count - 1 }) != 1 {
                ledger.fail("forward: the local URL changed or was printed again: \(outcome?.stdout ?? "")")
            }
        } catch {
            ledger.fail("forward: \(error)")
        }
    }

    /// The port of the first stdout line, `http://127.0.0.1:PORT`, within 30 s.
    private static func localPort(of forward: RWSProcess) async -> Int? {
        try? await Eventually.value(within: .seconds(30)) {
            forward.stdoutSoFar.firstMatch(of: /http:\/\/127\.0\.0\.1:([0-9]+)\n/).flatMap { Int($0.1) }
        }
    }
}
