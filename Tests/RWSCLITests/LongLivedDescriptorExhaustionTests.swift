import Foundation
import Platform
import RWSTestSupport
import SessionHistory
import Testing

/// `rws watch` and `rws shell` whose descriptors run out here as their link is lost, as
/// ``FollowDescriptorExhaustionTests`` does for the follow: no crash of rws's; the watch and the
/// persistent shell come back once some are free, with nothing that came meanwhile lost; a plain
/// shell ends saying the link was lost. A death of libdispatch's trap is that known issue.
@Suite(.timeLimit(.minutes(3))) struct LongLivedDescriptorExhaustionTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-cli-home-\(UUID().uuidString.prefix(8))").path

    @Test(arguments: ServerKind.allCases)
    func aWatchOutOfDescriptorsWhenItsLinkIsLostReportsWhatCameOnceSomeAreFree(kind: ServerKind) async throws {
        let box = try TestBox(kind)
        defer { box.remove() }
        let proxy = try FaultProxy(targetPort: box.server.port)
        defer { proxy.stop() }
        let claude = ["--claude-dir", box.claudeDirectory]
        let installed = try await RWSBinary.run(["hooks", "install"] + box.server.rwsFlags + claude, home: box.localHome)
        #expect(installed.status == 0, "\(installed.stderr)")
        let flags = try box.server.rwsFlags(through: proxy, keepalive: (interval: 1, count: 4))
        let run = try RunningRws(["watch", "--json"] + flags + claude, home: box.localHome)
        defer { if run.process.isRunning { run.kill() } }
        #expect(
            try await Eventually.holds(within: .seconds(20)) { FileManager.default.fileExists(atPath: box.claudeDirectory + "/rws/lease") })
        try Self.report("first", box)
        #expect(await run.output.waitFor("finished: first.", seconds: 20), "\(run.errors.collected)")

        try OpenFileLimit.useUp(ofRws: run.process.processIdentifier)
        proxy.cutAll()
        try Self.report("second", box)  // while the watch cannot reach the box
        try await Task.sleep(for: .seconds(6))
        if await run.diedOfLibdispatchTrap() { return }
        #expect(run.process.isRunning, "rws ended while out of descriptors: \(run.errors.collected)")
        try OpenFileLimit.set(1024, of: run.process.processIdentifier)
        #expect(await run.output.waitFor("finished: second.", seconds: 30), "\(run.errors.collected)")

        run.process.interrupt()
        #expect(await run.waitForExit(within: 15))
        #expect(run.process.terminationReason == .exit && run.process.terminationStatus == 130, "\(run.errors.collected)")
        let summaries = try run.output.collected.split(separator: "\n").map { try JSONValue(parsing: String($0))["summary"]?.stringValue }
        #expect(summaries == ["finished: first.", "finished: second."], "\(run.output.collected)")
    }

    /// Claude Code's Stop hook for a session whose last message is `word` + ".".
    static func report(_ word: String, _ box: TestBox) throws {
        let folder = box.claudeDirectory + "/rws"
        let payload = #"{"session_id":"s-\#(word)","cwd":"/home/dev/app","hook_event_name":"Stop","last_assistant_message":"\#(word)."}"#
        _ = try ScriptShells.execute("/bin/sh", [folder + "/hook.sh", folder], input: Array(payload.utf8), directory: folder)
    }

    @Test(arguments: ServerKind.allCases)
    func aPersistentShellOutOfDescriptorsWhenItsLinkIsLostReattachesOnceSomeAreFree(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let name = "fd\(UUID().uuidString.prefix(6).lowercased())"
        let tmux = try await PersistentShellCommandTests.attach(name, on: server, through: proxy, home: home)
        defer {
            tmux.stop()
            _ = try? RWSBinary.runToEnd(["shell"] + server.rwsFlags + ["--kill-persistent", name], home: home)
        }
        let rws = try #require(LocalProcessTable.live(containing: "--persist \(name)").first { $0.arguments.hasPrefix(RWSBinary.path) })

        try OpenFileLimit.useUp(ofRws: rws.pid)
        proxy.cutAll()
        try await tmux.wait(for: "reattaching to \(name)", within: .seconds(15))
        try await Task.sleep(for: .seconds(6))
        if LocalProcessTable.process(rws.pid) == nil {
            let screen = try tmux.screen()
            // bash says how its child died; a failed precondition of rws's would print its own words.
            guard screen.contains("Illegal instruction"), !screen.contains("Fatal error") else {
                Issue.record("rws ended while out of descriptors:\n\(screen)")
                return
            }
            withKnownIssue("libdispatch trapped: its pool monitor could not open /proc/TID/stat (LibdispatchDescriptorTrapTests)") {
                Issue.record("rws died of SIGILL with no message of its own:\n\(screen)")
            }
            return
        }
        try OpenFileLimit.set(1024, of: rws.pid)
        try tmux.type("echo back-$((1+1))")
        try await tmux.wait(for: "back-2", within: .seconds(30))
        try tmux.press("Enter")
        try tmux.type("~.", enter: false)
        try await tmux.wait(for: "Detached from \(name)")
        try await tmux.waitForLastLine(Tmux.localPrompt)
    }

    @Test(arguments: ServerKind.allCases)
    func aShellOutOfDescriptorsWhenItsLinkIsLostEndsSayingSo(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let marker = Int.random(in: 100_000...999_999)
        let flags = try server.rwsFlags(through: proxy, keepalive: (interval: 1, count: 4))
        let run = try RunningRws(["shell"] + flags + ["--command", "echo started; sleep \(marker)"], home: home)
        defer { if run.process.isRunning { run.kill() } }
        #expect(await run.output.waitFor("started", seconds: 20), "\(run.errors.collected)")

        try OpenFileLimit.useUp(ofRws: run.process.processIdentifier)
        proxy.cutAll()
        #expect(await run.waitForExit(within: 30))
        if await run.diedOfLibdispatchTrap() { return }
        #expect(run.process.terminationReason == .exit && run.process.terminationStatus == 255, "\(run.errors.collected)")
        #expect(run.errors.collected.contains("connection lost"), "\(run.errors.collected)")
        // The box cannot be reached to stop the command: rws names it, and what it says is so.
        let said = run.errors.collected
        let named = try #require(said.firstMatch(of: /still be running on the box as PID ([0-9]+) .*`kill -- -\1`/)?.1, "\(said)")
        let left = LocalProcessTable.live(running: "sleep \(marker)")
        #expect(left.map(\.group) == [try #require(Int32(named))], "\(left)")
        for process in left { try? SystemCall.kill(process.pid, SIGKILL) }
    }
}
