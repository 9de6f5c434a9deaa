import Foundation
import RWSTestSupport
import Testing

/// The first commands a person runs with rws, from a `~/.ssh` used for years (``RealHome``):
/// hashed known_hosts, a config with Include and Match, several keys, an agent full of keys.
@Suite(.timeLimit(.minutes(3))) struct RealHomeTests {
    private func rws(_ arguments: [String], in home: RealHome, environment: [String: String] = [:]) async throws -> RWSBinary.Outcome {
        let environment = home.environment.merging(environment) { $1 }
        return try await RWSBinary.run(arguments, home: home.home, environment: environment)
    }

    private func openSSHFinds(_ name: String, in home: RealHome) -> Bool {
        (try? Shell.run("/usr/bin/ssh-keygen", ["-F", name, "-f", home.knownHostsPath]))?.isEmpty == false
    }

    @Test(arguments: ServerKind.allCases)
    func theFirstConnectionRecordsTheHostInTheHashedFileAndTheNextIsTrusted(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let home = try RealHome(for: server)
        defer { home.stop() }
        let strict = try await rws(["exec", "--host", "box", "--", "echo", "hi"], in: home)
        #expect(strict.status == 255 && strict.stderr.contains("is not known"), "\(strict.stderr)")
        #expect(strict.stderr.contains("--accept-new-host-key"))

        let first = try await rws(["exec", "--host", "box", "--accept-new-host-key", "--", "echo", "hi"], in: home)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "hi\n")
        #expect(openSSHFinds("[127.0.0.1]:\(server.port)", in: home))
        #expect(try home.countKnownHostsEntries() == home.knownHostsEntries + 1)
        for old in ["github.com", "build7.corp.example.org", "[10.0.0.3]:2222", "old-box.example.org"] {
            #expect(openSSHFinds(old, in: home), "\(old) was lost")
        }
        let next = try await rws(["exec", "--host", "box", "--", "echo", "again"], in: home)
        #expect(next.status == 0 && next.stdout == "again\n", "\(next.stderr)")
    }

    @Test(arguments: ServerKind.allCases)
    func strictHostKeyCheckingAcceptNewInTheConfigRecordsTheHost(kind: ServerKind) async throws {
        let server = try SharedTestServer.get(kind)
        let home = try RealHome(for: server)
        defer { home.stop() }
        let outcome = try await rws(["exec", "--host", "box-accept-new", "--", "true"], in: home)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(openSSHFinds("[127.0.0.1]:\(server.port)", in: home))
    }

    @Test func anRSAOnlySetupIsToldWhyAndWhatToDo() async throws {
        let server = try SharedTestServer.get(.openssh)
        let home = try RealHome(for: server)
        defer { home.stop() }
        let outcome = try await rws(["exec", "--host", "rsa-only", "--accept-new-host-key", "--", "true"], in: home)
        #expect(outcome.status == 255)
        for text in ["id_rsa", "signs RSA keys only with SHA-1", "ssh-keygen -t ed25519", "PubkeyAcceptedAlgorithms +ssh-rsa"] {
            #expect(outcome.stderr.contains(text), "\(outcome.stderr) lacks \(text)")
        }
        #expect(!outcome.stderr.lowercased().contains("password:"))
    }

    @Test func anEncryptedKeyWithoutATerminalNamesTheWaysToUnlockIt() async throws {
        let server = try SharedTestServer.get(.openssh)
        let home = try RealHome(for: server)
        defer { home.stop() }
        let outcome = try await rws(["exec", "--host", "locked", "--accept-new-host-key", "--", "true"], in: home)
        #expect(outcome.status == 255)
        for text in ["id_ecdsa_locked is encrypted", "--passphrase-env", "RWS_KEY_PASSPHRASE", "ssh-add"] {
            #expect(outcome.stderr.contains(text), "\(outcome.stderr) lacks \(text)")
        }
        let unset = try await rws(["exec", "--host", "locked", "--passphrase-env", "MY_PASS", "--", "true"], in: home)
        #expect(unset.status == 64 && unset.stderr.contains("MY_PASS is not set"))
    }

    /// A server of its own allowing 3 attempts, which accepts the box key.
    private func strictServer() throws -> TestSSHServer {
        try TestSSHServer(.openssh, TestSSHServer.Options(extraConfig: ["MaxAuthTries 3"]))
    }

    /// Lets `server` (an OpenSSH one of this suite's own) accept the home's encrypted key too.
    private func authorizeLockedKey(of home: RealHome, on server: TestSSHServer) throws {
        let locked = try String(contentsOfFile: home.sshDirectory + "/id_ecdsa_locked.pub", encoding: .utf8)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: server.directory.path + "/authorized_keys"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(locked.utf8))
        try handle.close()
    }

    @Test func anAgentFullOfKeysDoesNotUseUpMaxAuthTriesBeforeTheConfiguredKey() async throws {
        let server = try strictServer()
        let home = try RealHome(for: server)
        defer { home.stop() }
        // Without the configured key, the agent's 8 keys run into MaxAuthTries 3: the limit is real.
        let agentOnly = try await rws(
            ["exec", "--host", "\(server.user)@127.0.0.1:\(server.port)", "-F", "/dev/null", "--accept-new-host-key", "--", "true"],
            in: home)
        #expect(agentOnly.status == 255)
        // sshd's own reason, and what to do about it, rather than a link that failed.
        #expect(
            agentOnly.stderr.contains("ended the connection during authentication: Too many authentication failures"), "\(agentOnly.stderr)"
        )
        #expect(agentOnly.stderr.contains("IdentitiesOnly yes"), "\(agentOnly.stderr)")
        let log = try String(contentsOfFile: server.logPath, encoding: .utf8)
        #expect(log.contains("maximum authentication attempts exceeded"), "\(log.suffix(600))")
        let outcome = try await rws(["exec", "--host", "box", "--accept-new-host-key", "--", "echo", "in"], in: home)
        #expect(outcome.status == 0 && outcome.stdout == "in\n", "\(outcome.stderr)")
    }

    @Test func anEncryptedKeyIsUnlockedByPassphraseEnv() async throws {
        let server = try strictServer()
        let home = try RealHome(for: server)
        defer { home.stop() }
        try authorizeLockedKey(of: home, on: server)
        let outcome = try await rws(
            ["exec", "--host", "locked", "--accept-new-host-key", "--passphrase-env", "MY_PASS", "--", "echo", "unlocked"], in: home,
            environment: ["MY_PASS": RealHome.lockedPassphrase])
        #expect(outcome.status == 0 && outcome.stdout == "unlocked\n", "\(outcome.stderr)")
    }

    @Test func anEncryptedKeyTheAgentHoldsIsUsedFromTheAgentWithoutAPassphrasePrompt() async throws {
        let server = try strictServer()
        let home = try RealHome(for: server)
        defer { home.stop() }
        try authorizeLockedKey(of: home, on: server)
        // The key unlocked once with ssh-add, behind the agent's eight others; no IdentitiesOnly.
        try home.agent.add(keyFile: home.sshDirectory + "/id_ecdsa_locked", passphrase: RealHome.lockedPassphrase)
        let config = home.sshDirectory + "/config-agent"
        let entry = "Host unlocked-in-agent\n  HostName 127.0.0.1\n  Port \(server.port)\n  User \(server.user)\n"
        try (entry + "  IdentityFile ~/.ssh/id_ecdsa_locked\n").write(toFile: config, atomically: true, encoding: .utf8)
        let tmux = try Tmux.start(home: home.home)
        defer { tmux.stop() }
        try tmux.type(
            "SSH_AUTH_SOCK=\(home.agentSocket) \(RWSBinary.path) exec -F \(config) --host unlocked-in-agent --accept-new-host-key "
                + "-- echo from-the-agent; echo \"status=$?\"")
        let screen = try await tmux.wait(for: "rws's end or its prompt") { screen in
            screen.contains("Enter passphrase") || screen.split(separator: "\n").contains { $0.hasPrefix("status=") && $0.count > 7 }
        }
        #expect(screen.contains("\nfrom-the-agent\n") && screen.contains("status=0"), "\(screen)")
        #expect(!screen.contains("Enter passphrase"), "asked for a passphrase the agent made needless:\n\(screen)")
    }

    /// A terminal in a sandbox home running `rws exec … -- echo WORD` with the locked key, waiting
    /// at its passphrase prompt; with the server it connects to (held: releasing it stops it).
    private struct PromptedTerminal {
        let server: TestSSHServer
        let home: RealHome
        let tmux: Tmux

        func stop() {
            tmux.stop()
            home.stop()
        }
    }

    private func atThePassphrasePrompt(echoing word: String) async throws -> PromptedTerminal {
        let server = try strictServer()
        let home = try RealHome(for: server)
        let tmux: Tmux
        do {
            try authorizeLockedKey(of: home, on: server)
            tmux = try Tmux.start(home: home.home)
        } catch {
            home.stop()
            throw error
        }
        let terminal = PromptedTerminal(server: server, home: home, tmux: tmux)
        do {
            try tmux.type("SSH_AUTH_SOCK=\(home.agentSocket) \(RWSBinary.path) exec --host locked --accept-new-host-key -- echo \(word)")
            _ = try await tmux.wait(for: "Enter passphrase for key")
            return terminal
        } catch {
            terminal.stop()
            throw error
        }
    }

    @Test func anEncryptedKeyAsksForItsPassphraseOnATerminalWithoutEchoingIt() async throws {
        let terminal = try await atThePassphrasePrompt(echoing: "unlocked-here")
        defer { terminal.stop() }
        let tmux = terminal.tmux
        try tmux.type(RealHome.lockedPassphrase)
        let screen = try await tmux.wait(for: "\nunlocked-here\n")
        #expect(!screen.contains(RealHome.lockedPassphrase), "the passphrase was echoed:\n\(screen)")
        #expect(screen.contains("id_ecdsa_locked"))
    }

    @Test func aWrongPassphraseIsAskedForAgainAsSshAsks() async throws {
        let terminal = try await atThePassphrasePrompt(echoing: "second-time")
        defer { terminal.stop() }
        let tmux = terminal.tmux
        try tmux.type("not the passphrase")
        try await tmux.wait(for: "Bad passphrase, try again for key")
        try tmux.type(RealHome.lockedPassphrase)
        let screen = try await tmux.wait(for: "\nsecond-time\n")
        #expect(!screen.contains(RealHome.lockedPassphrase) && !screen.contains("not the passphrase"), "echoed:\n\(screen)")
    }

    @Test func ctrlCAtThePassphrasePromptEndsWithCode130SayingSoAndRestoresTheTerminal() async throws {
        let terminal = try await atThePassphrasePrompt(echoing: "never-here")
        defer { terminal.stop() }
        let tmux = terminal.tmux
        try tmux.press("C-c")
        _ = try await tmux.wait(for: "interrupted at the passphrase prompt")
        // Echo is back: what is typed next shows, and the shell saw rws end with 130.
        try tmux.type("echo \"status=$?\"")
        let screen = try await tmux.wait(for: "status=130")
        #expect(screen.contains("echo \"status=$?\""), "the terminal was left without echo:\n\(screen)")
        #expect(!screen.split(separator: "\n").contains("never-here"), "the command ran:\n\(screen)")
    }
}
