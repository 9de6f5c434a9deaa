import Foundation
import Platform
import RWSTestSupport
import Testing

/// A low limit on open files (`ulimit -n`): below what rws needs to take over Ctrl+C, SIGTERM and
/// SIGHUP it refuses to start and says what to do (it used to run deaf to SIGTERM under 12, its
/// command on the box with it); at that floor every long-lived command still ends on SIGTERM
/// with 143, having stopped what it ran on the box.
@Suite(.timeLimit(.minutes(1))) struct DescriptorLimitTests {
    @Test func aLimitTooLowToStopCommandsSafelyIsRefusedWithWhatToDo() async throws {
        let box = try TestBox()
        defer { box.remove() }
        let outcome = try await RWSBinary.run(
            ["exec"] + box.server.rwsFlags + ["--", "echo ran"], home: box.localHome, until: { _ in false }, within: .seconds(20),
            openFiles: 10
        ) { _ in }
        #expect(outcome.status == 1, "\(outcome)")
        #expect(
            outcome.stderr == "rws: only 10 open files are allowed here (ulimit -n), and rws needs 20 to run a command and stop it "
                + "safely on Ctrl+C: raise the limit (ulimit -n 1024) and run it again\n")
        #expect(!outcome.stdout.contains("ran"))
    }

    @Test(arguments: ["exec", "follow", "watch", "forward", "shell"])
    func atTheFloorALongLivedCommandStillEndsOnSIGTERM(command: String) async throws {
        let box = try TestBox()
        defer { box.remove() }
        let marker = "rws-floor-\(UUID().uuidString.prefix(8))"
        let id = "f1004000-0000-4000-8000-000000000020"
        try box.writeSession(
            id,
            lines: [
                #"{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"\#(id)","cwd":"/p","#
                    + #""timestamp":"2026-02-03T04:05:06.000Z","message":{"role":"user","content":"floor"}}"#
            ])
        let arguments: [String] =
            switch command {
            case "exec": ["exec"] + box.server.rwsFlags + ["--", "echo started; sleep 60 # \(marker)"]
            case "follow": ["history"] + box.rwsFlags + [id, "--follow"]
            case "watch": ["watch"] + box.rwsFlags
            case "forward": ["forward"] + box.server.rwsFlags + ["0:\(box.server.port)"]
            default: ["shell"] + box.server.rwsFlags + ["--command", "echo started; sleep 60 # \(marker)"]
            }
        let ready = ["exec": "started", "follow": "floor", "watch": "", "forward": "http://", "shell": "started"][command] ?? ""
        let outcome = try await RWSBinary.run(
            arguments, home: box.localHome, until: { ready.isEmpty || $0.contains(ready) }, within: .seconds(20), openFiles: 20
        ) { child in
            if ready.isEmpty { Thread.sleep(forTimeInterval: 2) }
            try SystemCall.kill(child, SIGTERM)
        }
        #expect(outcome.status == 143, "\(outcome)")
        #expect(LocalProcessTable.live(containing: marker).isEmpty, "the command's processes are still on the box")
    }
}
