"""What a session's command starts with, and how its end is reported, as OpenSSH's sshd does it.

Part of the asyncssh test server (asyncssh_server.py). Commands run as `SHELL -c COMMAND` (a
shell request: `SHELL -l`) with the user's login shell from the passwd database, as a new session
(and process group) leader, in HOME, with HOME, USER, LOGNAME, SHELL, PATH, SHLVL=1 and
SSH_CONNECTION/SSH_CLIENT set, plus the variables the client sent. With --force-command that
program runs instead, and finds the requested command in SSH_ORIGINAL_COMMAND.
"""

import signal

# How much a session reads at once, from the command's output or from the client's input.
READ_SIZE = 65536

# Signals whose disposition a child must not inherit from whoever started this server: a test
# runner may start it with SIGINT ignored (as a shell does for a job in the background), and a
# `sleep` that ignores SIGINT would not stop on Ctrl+C. Python itself ignores SIGPIPE.
SIGNALS_RESET_FOR_CHILDREN = (
    signal.SIGINT, signal.SIGQUIT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE,
    signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU, signal.SIGCHLD,
)


def reset_signals():
    """Runs in a child between fork and exec: default dispositions, nothing blocked."""
    for number in SIGNALS_RESET_FOR_CHILDREN:
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


def session_environment(settings, process, terminal_type):
    """The environment a command starts with, as sshd builds it."""
    environment = dict(process.env)
    client_address, client_port = process.get_extra_info("peername")[:2]
    server_address, server_port = process.get_extra_info("sockname")[:2]
    environment.update({
        "HOME": settings.home,
        "USER": settings.user,
        "LOGNAME": settings.user,
        "SHELL": settings.shell,
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        # Debian's bash sources ~/.bashrc for commands run by sshd when SHLVL < 2.
        "SHLVL": "1",
        "SSH_CONNECTION": f"{client_address} {client_port} {server_address} {server_port}",
        "SSH_CLIENT": f"{client_address} {client_port} {server_port}",
    })
    if terminal_type:
        environment["TERM"] = terminal_type
    return environment


def command_line(settings, process, environment):
    """The program and arguments for the session: the login shell, running the command if one was given."""
    requested = process.command
    if settings.force_command:
        environment["SSH_ORIGINAL_COMMAND"] = requested or ""
        requested = settings.force_command
    if requested is None:
        # A shell request: the user's login shell.
        return [settings.shell, "-l"]
    return [settings.shell, "-c", requested]


def exit_with(process, returncode):
    """Reports how the command ended: a status, or the signal that killed it."""
    if returncode >= 0:
        process.exit(returncode)
    else:
        name = signal.Signals(-returncode).name.removeprefix("SIG")
        process.exit_with_signal(name)
