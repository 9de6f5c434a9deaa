import Foundation
import Platform

/// Runs programs with `posix_spawn` and waits for them: the one way the test support starts a
/// program it waits for.
///
/// Foundation's `Process` can miss the exit of a child whose own child lives on (tmux's client
/// forking its server), and children spawned from a test thread inherit its blocked signals.
/// Here the child starts with an empty signal mask and default handlers, output goes to a file.
public enum Spawn {
    /// Runs `executable` with `arguments` and `environment`; returns stdout and stderr together.
    /// Throws when it exits non-zero.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> String {
        let ended = try capture(executable, arguments, environment: environment, mergingErrors: true)
        guard ended.status == 0 else {
            throw TestServerError.commandFailed(
                "\(executable) \(arguments.joined(separator: " ")) failed (\(ended.status)): \(ended.stdout)")
        }
        return ended.stdout
    }

    /// How a program ended and what it printed.
    public struct Ended: Sendable {
        /// The bytes of standard output (with standard error when merged).
        public var output: [UInt8]
        /// The bytes of standard error (none when merged into `output`).
        public var errors: [UInt8]
        /// Standard output as text.
        public var stdout: String { String(decoding: output, as: UTF8.self) }
        /// Standard error as text.
        public var stderr: String { String(decoding: errors, as: UTF8.self) }
        /// The exit status, or 128 + N when signal N ended it.
        public var status: Int32
        /// The signal that ended it, when one did.
        public var signal: Int32?
    }

    /// Runs `executable` to its end with `stdin` as its input and `environment` as its whole
    /// environment (nil: this process's), and returns what it printed.
    ///
    /// Input and output are files, not pipes: a child that leaves a grandchild behind holding
    /// them (a daemon, a server it started) cannot make the wait hang, and nothing waits for a
    /// pipe's buffer. It reaps only its own child, unlike Foundation's `Process`, whose reaping
    /// makes every `Process` wait for the longest-running one: tests can run side by side.
    /// A program that never ends by itself (a polling loop) is ended, its whole group killed,
    /// once its output holds `marker`, or after `timeout`.
    public static func capture(
        _ executable: String, _ arguments: [String], environment: [String: String]?, directory: String? = nil,
        stdin: [UInt8] = [], mergingErrors: Bool = false, timeout: Duration? = nil, endingOnceOutputHolds marker: String? = nil
    ) throws -> Ended {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("rws-spawn-\(UUID().uuidString)").path
        let (inPath, outPath, errPath) = (base + ".in", base + ".out", base + ".err")
        defer { for path in [inPath, outPath, errPath] { try? FileManager.default.removeItem(atPath: path) } }
        try Data(stdin).write(to: URL(fileURLWithPath: inPath))
        let child = try start(
            executable, arguments, environment: (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" },
            directory: directory, stdinPath: inPath, stdoutPath: outPath, stderrPath: mergingErrors ? nil : errPath)
        let read = { (path: String) in Array((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()) }
        let done = marker.map { marker in { String(decoding: read(outPath), as: UTF8.self).contains(marker) } }
        let status = wait(for: child, killingGroupAfter: timeout, orOnce: done)
        return Ended(output: read(outPath), errors: mergingErrors ? [] : read(errPath), status: exitCode(status), signal: signal(status))
    }

    /// Waits for `child` to end and returns its raw wait status; after `timeout` (if given), or
    /// once `done` (if given, asked every 20 ms) holds, kills the process group it leads first.
    public static func wait(
        for child: pid_t, killingGroupAfter timeout: Duration? = nil, orOnce done: (() -> Bool)? = nil
    ) -> Int32 {
        var status: Int32 = 0
        if timeout != nil || done != nil {
            let deadline = timeout.map { ContinuousClock.now + $0 }
            while true {
                let reaped = waitpid(child, &status, WNOHANG)
                if reaped == child || (reaped < 0 && errno != EINTR) { return status }
                if deadline.map({ ContinuousClock.now >= $0 }) ?? false || done?() == true {
                    try? SystemCall.kill(-child, SIGKILL)
                    break
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        return status
    }

    /// The shell's number for a wait status: the exit status, or 128 + the signal that ended it
    /// (WIFEXITED ? WEXITSTATUS : 128 + WTERMSIG, spelled out because the C macros are not imported).
    public static func exitCode(_ status: Int32) -> Int32 {
        status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + status & 0x7F
    }

    /// The signal a wait status says ended the program, if one did.
    public static func signal(_ status: Int32) -> Int32? {
        status & 0x7F == 0 ? nil : status & 0x7F
    }

    /// Starts `executable` in `directory` (nil: this one) with stdin from `stdinPath`, stdout to
    /// `stdoutPath` and stderr to `stderrPath` (nil: the same file), an empty signal mask, default
    /// handlers and a process group of its own (so the whole group can be stopped); returns its
    /// PID for the caller to wait for.
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String], directory: String? = nil,
        stdinPath: String = "/dev/null", stdoutPath: String, stderrPath: String?
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let stderrPath {
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        try InheritedDescriptors.close(in: &actions)
        // glibc's posix_spawn_file_actions_addchdir_np is not imported: `env -C` changes directory.
        let (executable, arguments) = directory.map { ("/usr/bin/env", ["-C", $0, executable] + arguments) } ?? (executable, arguments)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let rc = SystemCall.withChildAttributes { posix_spawn(&child, executable, &actions, &$0, argv, envp) }
        guard rc == 0 else { throw TestServerError.commandFailed("cannot start \(executable): \(String(cString: strerror(rc)))") }
        return child
    }
}
