import Foundation
import Platform
import RWSTestSupport
import Testing

/// `rws ask` without `--persist` whose link is cut or black-holed while Claude Code streams its
/// answer (the real CLI, scripted model): rws ends with 255 saying the connection was lost and
/// under which PID Claude Code may still run, and Claude Code does not outlive the link on the
/// box: its input ends once the server sees the connection go (for a black hole, once the link
/// lets that through, here as rws exits).
@Suite(.timeLimit(.minutes(3))) struct AskLinkLossCommandTests {
    enum Fault: String, CaseIterable, Sendable { case cut, blackHole }

    static let cases: [(ServerKind, Fault)] = ServerKind.allCases.flatMap { kind in Fault.allCases.map { (kind, $0) } }

    @Test(arguments: cases)
    func anAskWhoseLinkIsLostEndsWith255AndLeavesNoClaudeCodeOnTheBox(kind: ServerKind, fault: Fault) async throws {
        let words = (1...60).map { "w\($0) " }.joined()
        let box = try TestBox(kind, claude: [["blocks": [["type": "text", "text": words, "chunks": 60]], "chunk_delay": 0.2]])
        defer { box.remove() }
        let proxy = try FaultProxy(targetPort: box.server.port)
        defer { proxy.stop() }
        let flags = try box.server.rwsFlags(through: proxy, keepalive: (interval: 1, count: 4))
        let started = ContinuousClock.now
        let outcome = try await RWSBinary.run(
            ["ask"] + flags + ["--workspace-root", box.workspaceRoot, "app", "Count", "--permission-mode", "default"],
            home: box.localHome, until: { $0.contains("w3 ") }, within: .seconds(60)
        ) { _ in
            switch fault {
            case .cut: proxy.cutAll()
            case .blackHole: proxy.setBlackHole(true)
            }
        }
        let took = ContinuousClock.now - started
        proxy.setBlackHole(false)
        #expect(outcome.status == 255, "\(outcome)")
        #expect(outcome.stderr.hasPrefix("rws: connection lost: "), "\(outcome.stderr)")
        // Claude Code is the command here: where it runs, and how to end it there at once.
        #expect(outcome.stderr.contains("may still be running on the box as PID "), "\(outcome.stderr)")
        #expect(!outcome.stdout.contains("w60 "), "the answer cannot have come whole: \(outcome.stdout)")
        #expect(took < .seconds(40), "\(took)")
        #expect(
            try await Eventually.holds(within: .seconds(30), every: .milliseconds(200)) {
                ClaudeCodeCLI.processes(in: box.project).isEmpty
            }, "Claude Code outlived the link on the box")
    }
}
