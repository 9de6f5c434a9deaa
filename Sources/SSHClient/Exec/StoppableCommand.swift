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
/// On a terminal the shell waits for a line in between, which rws sends once it has the PID line:
/// a program that flushes its terminal's output as it starts (tmux does, `tcflush(TCOFLUSH)`,
/// also when a login profile starts it) discards what the kernel has not handed to the server
/// yet, and on a busy box that was the PID line, so rws held the keys typed for good.
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

    /// The exec request's command line for `command`; `onTerminal` for a PTY's program.
    static func wrap(_ command: String, onTerminal: Bool = false) -> String {
        // A command with a NUL cannot be quoted (nor carried: the server reads the request as a
        // C string and refuses or cuts it), so it goes as before, unwrapped behind the PID line.
        guard let quoted = try? ShellQuoting.quote(command) else {
            return "echo rws-pid:$$\n" + (onTerminal ? "IFS= read -r _ || :\n" : "") + command
        }
        // Run by the login shell itself (the command is the user's, in the user's shell), so the
        // command arrives as the positional argument that `set --` sets, and is taken off again.
        return "set -- " + quoted + (onTerminal ? " terminal" : "") + "\n" + script.body
    }

    /// The wrapper: `$1` is the command; with `$2` (a terminal's program) it waits for rws's
    /// answer to the PID line (a newline) before it runs the command, or for the end of input.
    static let script = RemoteScript(
        step: "starting a stoppable command", checksDescriptors: false,
        body: #"""
            rws_c=$1; rws_t=${2-}; shift $#
            rws_g=
            [ -r /proc/$$/stat ] && read -r rws_g </proc/$$/stat
            rws_g=${rws_g##*') '}; rws_g=${rws_g#* }; rws_g=${rws_g#* }; rws_g=${rws_g%% *}
            if [ -n "$rws_g" ] && [ "$rws_g" != "$$" ] && command -v setsid >/dev/null 2>&1; then
            # shellcheck disable=SC2016 # expanded by the new shell
            exec setsid "${SHELL:-/bin/sh}" -c 'echo rws-pid:$$; [ -z "$2" ] || IFS= read -r _ || :; eval "$1"' "$0" "$rws_c" "$rws_t"
            fi
            unset rws_g
            echo rws-pid:$$
            [ -z "$rws_t" ] || IFS= read -r _ || :
            eval "$rws_c"
            """#)
}
