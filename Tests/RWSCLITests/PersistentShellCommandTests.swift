import Foundation
import RWSTestSupport
import SSHClient
import Testing

/// `rws shell --persist` in a real terminal: the programs survive a dropped link and rws comes
/// back to the same screen by itself; the persistent shells can be listed and ended.
@Suite(.timeLimit(.minutes(2))) struct PersistentShellCommandTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-cli-home-\(UUID().uuidString.prefix(8))").path

    @Test func aDroppedLinkReattachesToTheSameScreenAndTildeDotDetaches() async throws {
        try await Self.expectADroppedLinkToReattach(on: try SharedTestServer.get(), home: home)
    }

    /// `rws shell --persist` through a proxy whose connections are cut: rws reattaches to the same
    /// shell, `~.` detaches, and the shell is listed, then ended.
    static func expectADroppedLinkToReattach(on server: TestSSHServer, home: String) async throws {
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let name = "cli\(UUID().uuidString.prefix(6).lowercased())"
        let tmux = try await attach(name, on: server, through: proxy, home: home)
        defer { tmux.stop() }
        proxy.cutAll()
        try await tmux.wait(for: "reattaching to \(name)", within: .seconds(15))
        try tmux.type("echo back-$((1+1))")
        try await tmux.wait(for: "back-2", within: .seconds(15))
        try tmux.press("Enter")
        try tmux.type("~.", enter: false)
        try await tmux.wait(for: "Detached from \(name)")
        // The box's tmux client is ended, not detached, so it never switches the local terminal
        // back: rws does (alternate screen, status line, modes), and the local shell is as it was.
        try await tmux.waitForLastLine(Tmux.localPrompt)

        let listed = await InProcessRWS.run(["shell"] + server.rwsFlags + ["--list-persistent"], home: home)
        #expect(listed.status == 0 && listed.stdout.contains("\(name)\ttmux\tdetached"), "\(listed.stdout)")
        let killed = await InProcessRWS.run(["shell"] + server.rwsFlags + ["--kill-persistent", name], home: home)
        #expect(killed.status == 0 && killed.stdout == "ended persistent shell \(name)\n")
        let again = await InProcessRWS.run(["shell"] + server.rwsFlags + ["--kill-persistent", name], home: home)
        #expect(again.status == 64 && again.stderr.contains("no persistent shell named \(name)"), "\(again.stderr)")
    }

    @Test func tildeDotGivesUpWaitingForALinkThatDoesNotComeBack() async throws {
        let server = try SharedTestServer.get()
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let name = "cli\(UUID().uuidString.prefix(6).lowercased())"
        let tmux = try await waitingToReattach(name, on: server, through: proxy)
        defer { tmux.stop() }
        try tmux.type("~.", enter: false)
        try await tmux.wait(for: "Detached from \(name)", within: .seconds(5))
        try await tmux.waitForLastLine(Tmux.localPrompt, within: .seconds(10))

        proxy.setBlackHole(false)
        let killed = await InProcessRWS.run(["shell"] + server.rwsFlags + ["--kill-persistent", name], home: home)
        #expect(killed.status == 0, "\(killed.stderr)")
    }

    @Test func aShellEndedWhileTheLinkWasDownIsNotStartedAfreshByTheReattach() async throws {
        let server = try SharedTestServer.get()
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let name = "cli\(UUID().uuidString.prefix(6).lowercased())"
        let tmux = try await waitingToReattach(name, on: server, through: proxy)
        defer { tmux.stop() }
        // Ended from elsewhere (another terminal, a direct link) while this one waits.
        let killed = await InProcessRWS.run(["shell"] + server.rwsFlags + ["--kill-persistent", name], home: home)
        #expect(killed.status == 0, "\(killed.stderr)")
        proxy.setBlackHole(false)

        try await tmux.wait(for: "\(name) ended on 127.0.0.1 while the link was down", within: .seconds(30))
        try await tmux.waitForLastLine(Tmux.localPrompt, within: .seconds(10))
        let listed = await InProcessRWS.run(["shell"] + server.rwsFlags + ["--list-persistent"], home: home)
        #expect(listed.status == 0 && !listed.stdout.contains(name), "\(listed.stdout)")
    }

    /// The box's sessions have no UTF-8 locale (the test sshd passes no LANG): tmux there would
    /// draw every character beyond ASCII as `_` unless told that the terminal takes UTF-8.
    @Test func aBoxWithoutAUTF8LocaleStillShowsUTF8InThePersistentShell() async throws {
        let server = try SharedTestServer.get()
        let proxy = try FaultProxy(targetPort: server.port)
        defer { proxy.stop() }
        let name = "cli\(UUID().uuidString.prefix(6).lowercased())"
        let tmux = try await Self.attach(name, on: server, through: proxy, home: home)
        defer { tmux.stop() }
        try tmux.type("locale 2>/dev/null | grep -c UTF-8; printf 'box \\342\\224\\202 caf\\303\\251 \\342\\234\\223\\n'")
        try await tmux.wait(for: "box │ café ✓", within: .seconds(10))
        try tmux.type("~.", enter: false)
        try await tmux.wait(for: "Detached from \(name)")
        let killed = await InProcessRWS.run(["shell"] + server.rwsFlags + ["--kill-persistent", name], home: home)
        #expect(killed.status == 0, "\(killed.stderr)")
    }

    /// ``attach(_:on:through:home:)``, then the box goes silent (every reconnect hangs in its
    /// handshake until its timeout) and rws says it is waiting to reattach.
    private func waitingToReattach(_ name: String, on server: TestSSHServer, through proxy: FaultProxy) async throws -> Tmux {
        let tmux = try await Self.attach(name, on: server, through: proxy, home: home)
        do {
            proxy.setBlackHole(true)
            proxy.cutAll()
            try await tmux.wait(for: "reattaching to \(name)", within: .seconds(15))
            return tmux
        } catch {
            tmux.stop()
            throw error
        }
    }

    /// A local terminal running `rws shell --persist NAME` through `proxy`, its shell answering.
    static func attach(_ name: String, on server: TestSSHServer, through proxy: FaultProxy, home: String) async throws -> Tmux {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let tmux = try Tmux.start(home: home)
        do {
            try await tmux.waitForLastLine(Tmux.localPrompt)
            try tmux.type(try ShellQuoting.commandLine([RWSBinary.path, "shell"] + server.rwsFlags(through: proxy) + ["--persist", name]))
            try tmux.type("echo mark-$((6*7))")
            try await tmux.wait(for: "mark-42")
            return tmux
        } catch {
            tmux.stop()
            throw error
        }
    }

    @Test func aNameWithoutPersistIsAUsageError() async throws {
        let outcome = try await RWSBinary.run(["shell", "--host", "127.0.0.1", "work"], home: home)
        #expect(outcome.status == 64 && outcome.stderr.contains("a shell name goes with --persist"), "\(outcome.stderr)")
    }
}
