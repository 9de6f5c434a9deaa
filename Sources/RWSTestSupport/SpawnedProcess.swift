import Foundation
import Platform

/// A long-running child started with `posix_spawn` and reaped by us.
///
/// Foundation's `Process` reaps its children with a blocking `wait4` on each in turn, so a
/// server started through it stalls `waitUntilExit` of every later short-lived `Process`.
/// The child starts with no signal blocked or ignored, whatever the spawning thread had, as
/// every other child of rws and its tests does: a test server that inherited a blocked or
/// ignored SIGINT would pass it on to the shells it runs unless it resets them, and Ctrl+C there
/// would stop nothing.
final class SpawnedProcess: @unchecked Sendable {
    let pid: pid_t
    private var reaped = false

    init(_ executable: String, _ arguments: [String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in 0...2 { posix_spawn_file_actions_addopen(&actions, Int32(fd), "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        try InheritedDescriptors.close(in: &actions)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        // In the test run's process group: Ctrl+C of the run ends the servers too (sshd has no watchdog).
        let rc = SystemCall.withChildAttributes(inOwnGroup: false) { posix_spawn(&child, executable, &actions, &$0, argv, environ) }
        guard rc == 0 else { throw TestServerError.startFailed("cannot start \(executable): \(String(cString: strerror(rc)))") }
        pid = child
    }

    /// Whether the child still runs (reaps it if it ended).
    var isRunning: Bool {
        guard !reaped else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { reaped = true }
        return !reaped
    }

    /// Sends `signal` and waits for the child to end.
    func stop(signal: Int32 = SIGKILL) {
        guard !reaped else { return }
        try? SystemCall.kill(pid, signal)  // gone already: the wait below reaps it
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        reaped = true
    }
}
