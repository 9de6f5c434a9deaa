import Foundation
import RWSTestSupport
import Testing

@testable import SSHClient

/// This machine's `/bin/sh` behind the face a box has: what RemoteWorkspace's behaviour tests
/// run on, so it has to keep a box's promises (exit statuses, stdin, timeouts that stop every
/// process, streamed output that waits for its reader).
@Suite struct LocalShellTests {
    @Test func aScriptSeesItsArgumentsItsHomeAndReportsItsExitStatus() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-shell-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let script = RemoteScript(step: "test", body: #"printf '%s|' "$1" "$2"; echo oops >&2; exit 7"#)
        let shell = LocalShell(environment: ["HOME": home])
        let line = try script.commandLine([.word("it's $HOME"), .path("~/x y")])
        let result = try await shell.runCommand(line, input: [], timeout: .seconds(10), idempotent: false)
        #expect(result.stdoutText == "it's $HOME|\(home)/x y|")
        #expect(result.stderrText == "oops\n")
        #expect(result.status == .exited(7))
    }

    @Test func inputReachesStdinAndACommandThatIgnoresItStillEnds() async throws {
        let shell = LocalShell()
        let echoed = try await shell.runCommand("tr a-z A-Z", input: Array("hello".utf8), timeout: .seconds(10), idempotent: false)
        #expect(echoed.stdoutText == "HELLO")
        let ignored = try await shell.runCommand(
            "exit 3", input: [UInt8](repeating: 65, count: 4 << 20), timeout: .seconds(10), idempotent: false)
        #expect(ignored.status == .exited(3))
    }

    @Test func aTimeoutStopsEveryProcessTheCommandStarted() async throws {
        let marker = "rws-local-timeout-\(UUID().uuidString.prefix(8))"
        let watch = RemoteProcessWatch(markers: marker)
        let run = Task {
            try await LocalShell().runCommand(
                "sh -c 'trap \"\" TERM HUP; sleep 300; :' \(marker) & sh -c 'sleep 301; :' \(marker); wait", input: [],
                timeout: .seconds(2),
                idempotent: false)
        }
        #expect(try await watch.waitUntilRunning(within: 5))
        let error = await #expect(throws: SSHError.self) { _ = try await run.value }
        guard case .timedOut? = error else {
            Issue.record("not a timeout: \(String(describing: error))")
            return
        }
        #expect(try await watch.leftovers(after: 5).isEmpty)
    }

    @Test func cancellingAStreamEndsItsOutputAndStopsItsProcesses() async throws {
        let marker = "rws-local-cancel-\(UUID().uuidString.prefix(8))"
        let watch = RemoteProcessWatch(markers: marker)
        let command = try LocalShell().startCommand("echo started; exec sh -c 'sleep 300; :' \(marker)", timeout: nil)
        var iterator = command.output.makeAsyncIterator()
        #expect(try await iterator.next() == .stdout(Array("started\n".utf8)))
        #expect(try await watch.waitUntilRunning(within: 5))
        command.cancel()
        await #expect(throws: SSHError.cancelled(command: command.command)) { _ = try await iterator.next() }
        #expect(try await watch.leftovers(after: 5).isEmpty)
    }

    /// The kill a stop sends ends the process, which raced the stop to the command's outcome: on a
    /// busy machine about one stop in 300 ended the output as if the command had ended by itself.
    @Test func everyStopEndsTheOutputWithItsReasonThoughTheKillEndsTheProcessAtOnce() async throws {
        var endedByThemselves = 0
        for _ in 0..<300 {
            let command = try LocalShell().startCommand("echo started; exec sleep 300", timeout: nil)
            var iterator = command.output.makeAsyncIterator()
            _ = try await iterator.next()
            command.cancel()
            do {
                while try await iterator.next() != nil {}
                endedByThemselves += 1
            } catch let error as SSHError {
                #expect(error == .cancelled(command: command.command))
            }
        }
        #expect(endedByThemselves == 0)
    }

    @Test func aSlowReaderGetsEveryByteInOrder() async throws {
        let command = try LocalShell().startCommand("seq 1 400000", timeout: .seconds(30))
        var bytes: [UInt8] = []
        var chunks = 0
        for try await event in command.output {
            if case .stdout(let chunk) = event { bytes += chunk }
            chunks += 1
            if chunks % 8 == 0 { try await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(try await command.exitStatus() == .exited(0))
        let expected = (1...400_000).map(String.init).joined(separator: "\n") + "\n"
        #expect(bytes == Array(expected.utf8))
    }

    /// As a box reports them: the exit status, or the signal by name, with a shell's code.
    @Test func exitStatusesAndSignalsAreReportedAsABoxReportsThem() async throws {
        let shell = LocalShell()
        #expect(try await shell.runCommand("exit 7", input: [], timeout: .seconds(10), idempotent: false).status == .exited(7))
        let killed = try await shell.runCommand("kill -TERM $$", input: [], timeout: .seconds(10), idempotent: false)
        #expect(killed.status == .signaled("TERM"))
        #expect(killed.status.shellCode == 143)
    }

    /// A command holds its stdin, stdout and stderr and nothing else of this process: not a
    /// descriptor the embedding program left inheritable (Foundation's `Pipe` makes such), not
    /// one of its own (through Foundation's `Process`, the command also held a socket of
    /// Foundation's, which a program another thread started could inherit too).
    @Test func aCommandHoldsItsStdinStdoutAndStderrAndNothingElse() async throws {
        var stray: [Int32] = [-1, -1]
        #expect(pipe(&stray) == 0)
        defer { stray.forEach { close($0) } }
        // The shell's own `read`, not `exec cat`: a program's dynamic loader holds each library
        // it maps open for a moment (fd 3), and a look then saw it.
        let command = try LocalShell().startCommand("echo started; read -r line; echo done", timeout: .seconds(30))
        var iterator = command.output.makeAsyncIterator()
        #expect(try await iterator.next() == .stdout(Array("started\n".utf8)))
        let pid = try #require(command.processID)
        let held = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").sorted()
        #expect(held == ["0", "1", "2"], "\(LocalProcessTable.descriptors(of: Int32(pid)))")
        try await command.closeInput()
        while try await iterator.next() != nil {}
        #expect(try await command.exitStatus() == .exited(0))
    }

    /// A program this process starts the way `posix_spawn` does by default, as a program embedding
    /// the library may, inherits every descriptor that is not close-on-exec: a command's pipes
    /// among them would stay open in it, and the command's output could not end before it did.
    @Test func aProgramStartedBesideACommandHoldsNoneOfItsPipes() async throws {
        let command = try LocalShell().startCommand("echo started; exec cat", timeout: .seconds(30))
        var iterator = command.output.makeAsyncIterator()
        #expect(try await iterator.next() == .stdout(Array("started\n".utf8)))
        let pid = try #require(command.processID)
        let streams = LocalProcessTable.descriptors(of: Int32(pid))
        #expect(streams.filter { $0.hasPrefix("pipe:") || $0.hasPrefix("socket:") }.count >= 3, "\(streams)")
        let bystander = try InheritingSpawn(["/bin/sleep", "30"])
        defer { bystander.stop() }
        let held = LocalProcessTable.descriptors(of: bystander.pid)
        #expect(!held.isEmpty)
        let shared = held.filter { name in (name.hasPrefix("pipe:") || name.hasPrefix("socket:")) && streams.contains(name) }
        #expect(shared.isEmpty, "the program holds the command's \(shared)")
        try await command.closeInput()
        while try await iterator.next() != nil {}
        #expect(try await command.exitStatus() == .exited(0))
    }
}

/// A program started with `posix_spawn` and no file actions: it inherits every descriptor of
/// this process that is not close-on-exec.
private struct InheritingSpawn {
    let pid: Int32

    init(_ arguments: [String]) throws {
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let status = posix_spawn(&pid, arguments[0], nil, nil, argv, environ)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL) }
        self.pid = pid
    }

    func stop() {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}
