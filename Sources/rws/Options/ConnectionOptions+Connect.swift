import ArgumentParser
import Foundation
import SSHClient
import SSHConfig

extension ConnectionOptions {
    /// Flags > RWS_* environment > SSH config > defaults, as one resolved host (`rws config show`).
    func resolve(environment: [String: String] = ProcessEnvironment.current) throws -> ResolvedHost {
        let local = LocalContext.current(environment: environment, homeFromEnvironment: true)
        return try Resolution.resolve(flags: try overrides(), environment: environment, local: local)
    }

    /// The connection settings, resolved by the library as for any of its users, jump hosts included.
    ///
    /// - Parameter passphrases: Asks for the passphrase of an encrypted identity file on the
    ///   terminal when its turn comes (after the agent), when there is a terminal and neither
    ///   `--passphrase-env` nor `RWS_KEY_PASSPHRASE` gives it.
    func configuration(
        environment: [String: String] = ProcessEnvironment.current, passphrases: PassphrasePrompt? = nil
    ) throws -> SSHConnectionConfiguration {
        var environment = environment
        if let passphrase = try passphrase(environment) { environment["RWS_KEY_PASSPHRASE"] = passphrase }
        var configuration = try SSHConnectionConfiguration(
            resolving: try overrides(), environment: environment, password: try password(environment),
            logger: logging.logger("rws.ssh"))
        let onTerminal = Terminal.isTTY(STDIN_FILENO) && Terminal.isTTY(STDERR_FILENO)
        // StrictHostKeyChecking ask (OpenSSH's default): asked on a terminal; without one, refused as yes is.
        if try resolve(environment: environment).strictHostKeyChecking == .ask, onTerminal {
            configuration.hostKeyPolicy = .ask(HostKeyPrompt.decide)
        }
        if let passphrases, onTerminal, environment["RWS_KEY_PASSPHRASE"] == nil {
            // A little less than the library's own wait, so the terminal is restored before it gives up.
            let limit = configuration.promptTimeout - .seconds(2)
            let ask: @Sendable (PassphraseChallenge) async -> String? = { await passphrases.ask($0, within: limit) }
            configuration.askPassphrase = ask
            for hop in configuration.jumpHosts.indices { configuration.jumpHosts[hop].askPassphrase = ask }
        }
        return configuration
    }

    /// The passphrase for encrypted identity files given by `--passphrase-env`, else `RWS_KEY_PASSPHRASE`;
    /// nil when neither gives one (then it is asked for on the terminal when needed).
    private func passphrase(_ environment: [String: String]) throws -> String? {
        if let variable = passphraseEnv {
            guard let passphrase = environment[variable] else {
                throw CLIError.usage("--passphrase-env \(variable): the environment variable \(variable) is not set")
            }
            return passphrase
        }
        return environment["RWS_KEY_PASSPHRASE"]
    }

    /// The password named by `--password-env`, if given.
    private func password(_ environment: [String: String]) throws -> String? {
        guard let variable = passwordEnv else { return nil }
        guard let password = environment[variable] else {
            // Never echoed: a password typed where its variable's name belongs would land in logs.
            throw CLIError.usage(
                "--password-env: no environment variable of that name is set (the value given is not shown, in case it "
                    + "is the password itself): export the password in a variable and give its name, e.g. --password-env BOX_PASSWORD")
        }
        return password
    }

    /// Connects with the resolved settings, runs `body`, and closes the connection on every path
    /// before returning or throwing: the one way every command connects.
    ///
    /// The close is awaited, so the I/O thread is done with libssh2 before the caller can `exit()`
    /// (an exit racing the thread's teardown crashed in OpenSSL's exit handlers).
    ///
    /// - Parameter reconnect: Re-establish a lost connection with this policy (persistent shells).
    func withConnection<T>(reconnect: ReconnectPolicy? = nil, _ body: (SSHConnection) async throws -> T) async throws -> T {
        let passphrases = PassphrasePrompt()
        var configuration = try configuration(passphrases: passphrases)
        configuration.reconnect = reconnect
        let ssh: SSHConnection
        do {
            ssh = try await SSHConnection.connect(configuration)
        } catch {
            // Ctrl+C at the passphrase prompt is why the connection failed, whatever it then said.
            throw passphrases.endingError() ?? error
        }
        do {
            let value = try await body(ssh)
            Self.say(await ssh.close())
            return value
        } catch {
            Self.say(await ssh.close())
            throw error
        }
    }

    /// Says which stops the close stopped waiting for: their processes may still run on the box.
    private static func say(_ unfinished: [UnfinishedStop]) {
        for stop in unfinished { Terminal.err("rws: \(stop.description.safeLine)\n") }
    }
}
