import ArgumentParser
import Foundation
import SSHClient
import SSHConfig

extension ConnectionOptions {
    /// Flags > RWS_* environment > SSH config > defaults, as one resolved host.
    func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ResolvedHost {
        do {
            return try Resolution.resolve(flags: try overrides(), environment: environment, local: .forRWS(environment))
        } catch SSHConfigError.missingHost {
            throw CLIError.usage("no host given: pass --host [USER@]HOST[:PORT] or set RWS_HOST")
        }
    }

    /// The connection settings the library takes, with the jump hosts (`-J`, `ProxyJump`) in front.
    func configuration(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SSHConnectionConfiguration {
        let resolved = try resolve(environment: environment)
        var target = try configuration(for: resolved, environment: environment)
        target.jumpHosts = try resolved.proxyJump.map { hop in
            try configuration(for: try resolveJumpHost(hop, environment: environment), environment: environment)
        }
        return target
    }

    /// A jump host resolved as a host of its own: its config entry applies, and so do the
    /// credential and host key flags (`-i`, `--known-hosts`, `--password-env`...), but not the
    /// target's user, port or jump hosts. A jump host's own ProxyJump is not followed: `-J`
    /// and `ProxyJump` list the whole chain.
    private func resolveJumpHost(_ hop: HostArgument, environment: [String: String]) throws -> ResolvedHost {
        var flags = try overrides()
        flags.host = hop
        flags.user = nil
        flags.port = nil
        flags.proxyJump = []
        var hopEnvironment = environment
        for name in ["RWS_HOST", "RWS_USER", "RWS_PORT", "RWS_PROXY_JUMP"] { hopEnvironment[name] = nil }
        return try Resolution.resolve(flags: flags, environment: hopEnvironment, local: .forRWS(environment))
    }

    private func configuration(for resolved: ResolvedHost, environment: [String: String]) throws -> SSHConnectionConfiguration {
        var methods: [AuthenticationMethod] = []
        let explicitKeys = !identity.isEmpty || environment["RWS_IDENTITY"] != nil
        for path in resolved.identityFiles {
            if FileManager.default.fileExists(atPath: path) {
                methods.append(.privateKey(path: path, passphrase: environment["RWS_KEY_PASSPHRASE"]))
            } else if explicitKeys {
                throw CLIError.usage("identity file \(path) does not exist")
            }
        }
        if resolved.agentPolicy == .allKeys, let socket = resolved.agentSocket { methods.append(.agent(socketPath: socket)) }
        if let variable = passwordEnv {
            guard let password = environment[variable] else {
                throw CLIError.usage("--password-env \(variable): the environment variable \(variable) is not set")
            }
            methods.append(.password(password))
            methods.append(.keyboardInteractive(password: password))
        }
        let interval = resolved.serverAliveInterval > 0 ? resolved.serverAliveInterval : 5
        let deadPeer = resolved.serverAliveInterval > 0 ? resolved.serverAliveInterval * max(1, resolved.serverAliveCountMax) : 20
        return SSHConnectionConfiguration(
            host: resolved.hostName, port: resolved.port, user: resolved.user, authentication: methods,
            hostKeyPolicy: resolved.strictHostKeyChecking == .yes ? .strict : .acceptNew,
            knownHostsFile: resolved.userKnownHostsFiles.first ?? NSString(string: "~/.ssh/known_hosts").expandingTildeInPath,
            connectTimeout: .seconds(resolved.connectTimeout ?? 15),
            keepaliveInterval: .seconds(interval), deadPeerTimeout: .seconds(deadPeer),
            logger: logging.logger("rws.ssh"))
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

extension LocalContext {
    /// The local context with `$HOME` honoured, so a sandboxed HOME never reads the real ~/.ssh.
    static func forRWS(_ environment: [String: String]) -> LocalContext {
        var context = LocalContext.current(environment: environment)
        if let home = environment["HOME"], !home.isEmpty { context.home = home }
        return context
    }
}
