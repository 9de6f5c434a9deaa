import Foundation
import Platform

/// Runs a short program with `posix_spawn` and waits for it, for programs that daemonize.
///
/// Foundation's `Process` can miss the exit of a child whose own child lives on (tmux's client
/// forking its server), and children spawned from a test thread inherit its blocked signals.
/// Here the child starts with an empty signal mask and default handlers, output goes to a file.
public enum Spawn {
    /// Runs `executable` with `arguments` and `environment`; returns stdout and stderr together.
    /// Throws when it exits non-zero.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> String {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("rws-spawn-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let child = try start(
            executable, arguments, environment: environment.map { "\($0.key)=\($0.value)" },
            stdoutPath: outputPath, stderrPath: nil)
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFEXITED && WEXITSTATUS == 0, spelled out because the C macros are not imported.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw TestServerError.commandFailed("\(executable) \(arguments.joined(separator: " ")) failed (\(status)): \(output)")
        }
        return output
    }

    /// Starts `executable` with stdin from /dev/null, stdout to `stdoutPath` and stderr to
    /// `stderrPath` (nil: the same file), an empty signal mask and default handlers; returns its
    /// PID for the caller to wait for.
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String],
        stdoutPath: String, stderrPath: String?
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let stderrPath {
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw TestServerError.commandFailed("cannot start \(executable): \(String(cString: strerror(rc)))") }
        return child
    }
}
