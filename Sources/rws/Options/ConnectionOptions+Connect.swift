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
    func configuration(environment: [String: String] = ProcessEnvironment.current) throws -> SSHConnectionConfiguration {
        var environment = environment
        if let passphrase = try passphrase(environment) { environment["RWS_KEY_PASSPHRASE"] = passphrase }
        var configuration = try SSHConnectionConfiguration(
            resolving: try overrides(), environment: environment, password: try password(environment),
            logger: logging.logger("rws.ssh"))
        // StrictHostKeyChecking ask (OpenSSH's default): asked on a terminal; without one, refused as yes is.
        if try resolve(environment: environment).strictHostKeyChecking == .ask, Terminal.isTTY(STDIN_FILENO),
            Terminal.isTTY(STDERR_FILENO)
        {
            configuration.hostKeyPolicy = .ask(HostKeyPrompt.decide)
        }
        return configuration
    }

    /// The passphrase for encrypted identity files: `--passphrase-env`, else `RWS_KEY_PASSPHRASE`,
    /// else asked on the terminal (as `ssh` does) for the first encrypted one; nil when none is needed
    /// or there is no terminal to ask on.
    private func passphrase(_ environment: [String: String]) throws -> String? {
        if let variable = passphraseEnv {
            guard let passphrase = environment[variable] else {
                throw CLIError.usage("--passphrase-env \(variable): the environment variable \(variable) is not set")
            }
            return passphrase
        }
        if let passphrase = environment["RWS_KEY_PASSPHRASE"] { return passphrase }
        guard Terminal.isTTY(STDIN_FILENO), Terminal.isTTY(STDERR_FILENO),
            let locked = try resolve(environment: environment).identityFiles.first(where: privateKeyFileIsEncrypted(atPath:))
        else { return nil }
        return try PassphrasePrompt.ask(for: locked)
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
        var configuration = try configuration()
        configuration.reconnect = reconnect
        let ssh = try await SSHConnection.connect(configuration)
        do {
            let value = try await body(ssh)
            await ssh.close()
            return value
        } catch {
            await ssh.close()
            throw error
        }
    }
}
