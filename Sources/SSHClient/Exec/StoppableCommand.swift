/// How every command and shell is started so that rws can stop all of its processes later.
///
/// libssh2 1.10 cannot send signals, so a stop is a `kill` over a second channel (``ProcessKill``),
/// which needs a PID whose session holds everything the command starts. OpenSSH runs each exec
/// (and each PTY program) as a session and process-group leader; dropbear does so for PTYs only,
/// an exec'd command stays in the session of dropbear's per-connection process, which must not
/// be killed. The wrapper therefore checks, with shell builtins only (no fork, no exec: the
/// OpenSSH path costs nothing), whether its shell leads its process group, reading the 5th field
/// of `/proc/$$/stat` (after the command name in parentheses, which may hold spaces). If it does
/// not, it replaces itself with `setsid` running the same login shell (`setsid` does not fork
/// when its caller leads no group, so the PID stays the same and now leads a fresh session).
/// Either way the shell prints `rws-pid:$$` first (``ProcessIDReader`` hides that line), then
/// runs the command with `eval` of a ``ShellQuoting``-quoted copy, so the command appears once.
///
/// Without `/proc` or `setsid` the PID does not lead a session; ``ProcessKill`` then stops the
/// process tree under it, which misses children that a process outside the tree adopted.
enum StoppableCommand {
    /// Throws ``SSHError/commandTooLong(length:limit:)`` when `command`, wrapped, is longer than
    /// an exec request may be (libssh2 sends no packet over 35,000 bytes, and fails with only
    /// "Unable to send channel request").
    static func checkLength(_ command: String) throws(SSHError) {
        let length = wrap(command).utf8.count
        guard length <= SSHConnection.maximumCommandLength else {
            throw .commandTooLong(length: length, limit: SSHConnection.maximumCommandLength)
        }
    }

    /// The exec request's command line for `command`.
    static func wrap(_ command: String) -> String {
        // A command with a NUL cannot be quoted (nor carried: the server reads the request as a
        // C string and refuses or cuts it), so it goes as before, unwrapped behind the PID line.
        guard let quoted = try? ShellQuoting.quote(command) else { return "echo rws-pid:$$\n" + command }
        // Run by the login shell itself (the command is the user's, in the user's shell), so the
        // command arrives as the positional argument that `set --` sets, and is taken off again.
        return "set -- " + quoted + "\n" + script.body
    }

    /// The wrapper: `$1` is the command.
    static let script = RemoteScript(
        step: "starting a stoppable command",
        body: #"""
            rws_c=$1; shift
            rws_g=
            [ -r /proc/$$/stat ] && read -r rws_g </proc/$$/stat
            rws_g=${rws_g##*') '}; rws_g=${rws_g#* }; rws_g=${rws_g#* }; rws_g=${rws_g%% *}
            if [ -n "$rws_g" ] && [ "$rws_g" != "$$" ] && command -v setsid >/dev/null 2>&1; then
            # shellcheck disable=SC2016 # expanded by the new shell
            exec setsid "${SHELL:-/bin/sh}" -c 'echo rws-pid:$$; eval "$1"' "$0" "$rws_c"
            fi
            unset rws_g
            echo rws-pid:$$
            eval "$rws_c"
            """#)
}
