import Glibc

/// How a child process ended.
public enum ChildExit: Sendable, Equatable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal of this number killed it.
    case signaled(Int32)
}

extension SystemCall {
    /// Starts `executable` (a path) with `arguments` and exactly `environment`, its stdin, stdout
    /// and stderr the descriptors given, in a process group of its own, with no signal blocked or
    /// ignored, and holding no other descriptor of this process: a program that embeds rws may
    /// keep inheritable ones (Foundation's `Process` makes its sockets so), and a command holding
    /// another's pipe would keep that pipe's reader from its end. Returns the child's PID; reap it
    /// with ``waitForExit(_:)``.
    public static func spawn(
        _ executable: String, arguments: [String], environment: [String: String], stdin: Int32, stdout: Int32, stderr: Int32
    ) throws(SystemCallError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, target) in [(stdin, Int32(0)), (stdout, 1), (stderr, 2)] {
            let code = posix_spawn_file_actions_adddup2(&actions, fd, target)
            guard code == 0 else { throw SystemCallError("posix_spawn_file_actions_adddup2", code: code) }
        }
        try addCloseAll(from: 3, to: &actions)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let code = withChildAttributes { posix_spawn(&child, executable, &actions, &$0, argv, envp) }
        guard code == 0 else { throw SystemCallError("posix_spawn", code: code) }
        return child
    }

    /// Runs `body` with `posix_spawn` attributes that start a child with no signal blocked or
    /// ignored (this process may block or ignore some, and a child inherits both), and, unless
    /// `inOwnGroup` is false, in a process group of its own.
    public static func withChildAttributes<Result, Failure: Error>(
        inOwnGroup: Bool = true, _ body: (inout posix_spawnattr_t) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        let group = inOwnGroup ? POSIX_SPAWN_SETPGROUP : 0
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | group))
        return try body(&attributes)
    }

    /// Waits for the child `pid` to end and reaps it.
    public static func waitForExit(_ pid: pid_t) throws(SystemCallError) -> ChildExit {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw SystemCallError("waitpid") }
        }
        // The <sys/wait.h> macros are not imported: exited when the low seven bits are zero.
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }

    /// Has a child started with `actions` close every descriptor from `lowest` up, after the
    /// actions added before: at once where glibc can (2.34 and later), else each one open now
    /// (one opened by another thread before the spawn is then missed).
    public static func addCloseAll(from lowest: Int32, to actions: inout posix_spawn_file_actions_t) throws(SystemCallError) {
        if try addCloseFrom(lowest, to: &actions) { return }
        guard let folder = opendir("/proc/self/fd") else { throw SystemCallError("opendir(/proc/self/fd)") }
        defer { closedir(folder) }
        let own = dirfd(folder)
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let fd = Int32(name), fd >= lowest, fd != own { posix_spawn_file_actions_addclose(&actions, fd) }
        }
    }
}
