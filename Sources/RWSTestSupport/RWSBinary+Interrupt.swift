import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension RWSBinary {
    /// Runs `rws` with `arguments`, presses Ctrl+C (SIGINT) once its stdout shows `marker`, and
    /// returns what it printed and how it exited.
    ///
    /// Started with `posix_spawn`, an empty signal mask and default handlers, as from a shell:
    /// a child of a test thread would otherwise inherit signals that thread blocks.
    public static func interrupted(_ arguments: [String], home: String, after marker: String,
                                   within limit: Duration = .seconds(10)) throws -> Outcome {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("rws-int-\(UUID().uuidString.prefix(8))").path
        let outPath = base + ".out", errPath = base + ".err"
        defer { for path in [outPath, errPath] { try? FileManager.default.removeItem(atPath: path) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let environment = ["HOME=\(home)", "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"]
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw TestServerError.commandFailed("cannot start \(path): \(String(cString: strerror(rc)))") }
        let deadline = ContinuousClock.now + limit
        var status: Int32 = 0
        var exited = false
        while !exited {
            let shown = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
            if shown.contains(marker) { break }
            if ContinuousClock.now > deadline { kill(child, SIGINT); break }
            exited = waitpid(child, &status, WNOHANG) == child
            usleep(20_000)
        }
        if !exited {
            kill(child, SIGINT)
            while waitpid(child, &status, 0) < 0, errno == EINTR {}
        }
        let stdout = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        // WIFEXITED ? WEXITSTATUS : 128 + WTERMSIG, spelled out because the C macros are not imported.
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + status & 0x7F
        return Outcome(stdout: stdout, stderr: stderr, status: code)
    }
}
