import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// `rws shell` in a real terminal: a tmux pane running a local bash, typed at with send-keys.
@Suite struct ShellCommandTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-cli-home-\(UUID().uuidString.prefix(8))").path

    private func shellCommandLine(_ server: TestSSHServer, extra: [String] = []) throws -> String {
        try ShellQuoting.commandLine([RWSBinary.path, "shell"] + server.rwsFlags + extra)
    }

    /// Starts tmux with `rws shell` in it (with `flags`, the server's own by default) and a
    /// recognisable remote prompt; stops tmux after `body`.
    private func withRemoteShell(
        on server: TestSSHServer, flags: [String]? = nil, _ body: (Tmux) async throws -> Void
    ) async throws {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let tmux = try Tmux.start(home: home)
        defer { tmux.stop() }
        try await tmux.waitForLastLine(Tmux.localPrompt)
        try tmux.type(try ShellQuoting.commandLine([RWSBinary.path, "shell"] + (flags ?? server.rwsFlags)))
        try tmux.type("PS1='rem''ote> '")
        try await tmux.waitForLastLine("remote> ")
        try await body(tmux)
    }

    /// Whether the `stty -a` output after the `rws-exit=` line shows canonical input and echo on.
    private func isCooked(_ screen: String) -> Bool {
        guard let marker = screen.range(of: "rws-exit=") else { return false }
        let output = screen[marker.upperBound...].drop { $0 != "\n" }
        let words = Set(output.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
        return words.contains("icanon") && words.contains("echo") && !words.contains("-icanon") && !words.contains("-echo")
    }

    @Test(arguments: ServerKind.allCases)
    func runsACommandInterruptsWithCtrlCDisconnectsWithTildeDotAndLeavesTheTerminalCooked(kind: ServerKind) async throws {
        try await withRemoteShell(on: try SharedTestServer.get(kind)) { tmux in
            try tmux.type("echo $((6*7))-ok")
            try await tmux.wait(for: "42-ok")
            try tmux.type("sleep 100")
            try await Task.sleep(for: .milliseconds(300))
            try tmux.press("C-c")
            try await tmux.waitForLastLine("remote> ", within: .seconds(5))  // not the 100 s of the sleep
            try tmux.press("Enter")
            try tmux.type("~.", enter: false)
            try await tmux.wait(for: "Connection to 127.0.0.1 closed.")
            try await tmux.waitForLastLine(Tmux.localPrompt)
            try tmux.type("echo rws-exit=$?; stty -a")
            let screen = try await tmux.wait(for: "rws-exit=255")
            #expect(isCooked(try await tmux.wait(for: "icanon")), "\(screen)")
        }
    }

    /// A box whose forced command ignores the one asked for (an `authorized_keys` `command=`, a
    /// restricted account) never prints the PID line, so rws holds the keys typed: `~.` still
    /// disconnects at once.
    @Test func tildeDotDisconnectsWhileTheRemoteTakesNoKeys() async throws {
        let server = try TestSSHServer.forcing(.openssh, script: "echo 'this box runs its own program only'\nexec cat >/dev/null")
        defer { server.stop() }
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let tmux = try Tmux.start(home: home)
        defer { tmux.stop() }
        try await tmux.waitForLastLine(Tmux.localPrompt)
        try tmux.type(try shellCommandLine(server))
        try await tmux.wait(for: "this box runs its own program only", within: .seconds(20))
        try tmux.press("Enter")
        try tmux.type("~.", enter: false)
        try await tmux.wait(for: "Connection to 127.0.0.1 closed.", within: .seconds(10))
        try await tmux.waitForLastLine(Tmux.localPrompt)
        try tmux.type("echo rws-exit=$?")
        try await tmux.wait(for: "rws-exit=255")
    }

    @Test(arguments: ServerKind.allCases)
    func theRemoteSizeFollowsTheLocalWindow(kind: ServerKind) async throws {
        try await withRemoteShell(on: try SharedTestServer.get(kind)) { tmux in
            try tmux.type("stty size")
            try await tmux.wait(for: "\n40 120\n")
            try tmux.command(["resize-window", "-t", "main", "-x", "100", "-y", "30"])
            // The window change reaches the box a moment after the resize: ask until it shows.
            let deadline = ContinuousClock.now + .seconds(10)
            repeat {
                try tmux.type("clear; stty size")
                if (try? await tmux.wait(for: "30 100\n", within: .milliseconds(500))) != nil { break }
            } while ContinuousClock.now < deadline
            try await tmux.wait(for: "30 100\n", within: .zero)
            try tmux.type("exit 3")
            try await tmux.waitForLastLine(Tmux.localPrompt)
            try tmux.type("echo rws-exit=$?; stty -a")
            try await tmux.wait(for: "rws-exit=3")
            #expect(isCooked(try await tmux.wait(for: "icanon")))
        }
    }

    @Test(arguments: ServerKind.allCases)
    func connectionLossEndsWith255AndRestoresTheTerminal(kind: ServerKind) async throws {
        let server = try TestSSHServer(kind)
        defer { server.stop() }
        try await withRemoteShell(on: server) { tmux in
            try tmux.type(#"echo shell""-pid=$$."#)  // the quotes keep the typed line from matching
            try await tmux.wait(for: "shell-pid=")
            let shell = try #require(try tmux.screen().firstMatch(of: /shell-pid=(\d+)\./).flatMap { Int32($0.1) })
            // Kill this server's per-connection processes (children of the listener): the socket closes under rws.
            // Dropbear's listener also parents the test watchdog, whose `sleep 1` may end before the kill.
            let listener = try String(contentsOfFile: server.pidFilePath, encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let monitors = try Shell.run("/usr/bin/pgrep", ["-P", listener]).split(separator: "\n").map(String.init)
            let sessions = try monitors.flatMap { try Shell.run("/usr/bin/pgrep", ["-P", $0], allowFailure: true).split(separator: "\n") }
            try Shell.run("/bin/kill", ["-KILL"] + monitors + sessions.map(String.init), allowFailure: kind == .dropbear)
            try await tmux.wait(for: "rws: connection lost")
            try await tmux.waitForLastLine(Tmux.localPrompt)
            try tmux.type("echo rws-exit=$?; stty -a")
            try await tmux.wait(for: "rws-exit=255")
            #expect(isCooked(try await tmux.wait(for: "icanon")))
            // Its terminal's other end closed with its server: the shell on the box got SIGHUP.
            let gone = try await Eventually.holds(within: .seconds(10), every: .milliseconds(100)) {
                LocalProcessTable.process(shell).map { !$0.isZombie } != true
            }
            #expect(gone, "the shell outlived its killed server")
        }
    }

    /// A black hole (nothing moves, nothing is reset) is found by the keepalives (here 1 s × 4).
    /// The shell on the box cannot be reached to be ended: it lives until its server drops the
    /// connection, which it does once the link closes.
    @Test(arguments: ServerKind.allCases)
    func aBlackHoleEndsTheShellWith255WithinItsKeepalivesAndRestoresTheTerminal(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let flags = try server.rwsFlags(through: proxy, keepalive: (interval: 1, count: 4))
        try await withRemoteShell(on: server, flags: flags) { tmux in
            try tmux.type(#"echo shell""-pid=$$."#)  // the quotes keep the typed line from matching
            try await tmux.wait(for: "shell-pid=")
            let shell = try #require(try tmux.screen().firstMatch(of: /shell-pid=(\d+)\./).flatMap { Int32($0.1) })
            proxy.setBlackHole(true)
            // The silence is measured: 4.0s on an idle machine, a little more on a busy one.
            let screen = try await tmux.wait(for: "s (keepalive unanswered)", within: .seconds(15))
            #expect(screen.contains(/rws: connection lost: the server did not answer for \d+\.\ds \(keepalive unanswered\)/), "\(screen)")
            try await tmux.waitForLastLine(Tmux.localPrompt)
            try tmux.type("echo rws-exit=$?; stty -a")
            try await tmux.wait(for: "rws-exit=255")
            #expect(isCooked(try await tmux.wait(for: "icanon")))
            #expect(LocalProcessTable.process(shell) != nil, "the shell should still run while its server holds the connection")
            proxy.stop()
            let deadline = ContinuousClock.now + .seconds(10)
            while LocalProcessTable.process(shell).map({ !$0.isZombie }) == true, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(LocalProcessTable.process(shell).map({ !$0.isZombie }) != true, "the shell outlived its closed connection")
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aSignalToTheLocalProcessRestoresTheTerminal(kind: ServerKind) async throws {
        try await withRemoteShell(on: try SharedTestServer.get(kind)) { tmux in
            let rws = try Shell.run("/usr/bin/pgrep", ["-P", "\(try tmux.panePID())"]).trimmingCharacters(in: .whitespacesAndNewlines)
            try Shell.run("/bin/kill", ["-QUIT", rws])
            try await tmux.waitForLastLine(Tmux.localPrompt)
            try tmux.type("echo rws-exit=$?; stty -a")
            try await tmux.wait(for: "rws-exit=131")
            #expect(isCooked(try await tmux.wait(for: "icanon")))
        }
    }

    @Test(arguments: ServerKind.allCases)
    func withoutALocalTerminalItSaysSoAndRunsTheShellOnStdin(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let outcome = try await RWSBinary.run(["shell"] + server.rwsFlags, stdin: "echo piped-$((1+1))\nexit 4\n", home: home)
        #expect(outcome.stdout.contains("piped-2\n"))
        #expect(outcome.stderr.contains("stdin is not a terminal"))
        #expect(outcome.status == 4)
    }
}
