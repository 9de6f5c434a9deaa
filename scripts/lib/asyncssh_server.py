#!/usr/bin/python3
"""A small SSH server built on asyncssh, the third server rws's tests run against.

OpenSSH and dropbear are the servers rws meets on real boxes; this one is neither, written on
another SSH implementation (asyncssh, Debian's python3-asyncssh), so that a behaviour the tests
prove is a behaviour of rws and not of one server's habits. RWSTestSupport's AsyncSSHServer
starts it; it is not meant for anything but tests on 127.0.0.1.

Usage:
    /usr/bin/python3 asyncssh_server.py --port PORT --directory DIR --home HOME
        [--log FILE] [--pid-file FILE] [--parent-pid PID]
        [--password PASSWORD] [--no-sftp] [--force-command PROGRAM]

    --port           the TCP port to listen on, on 127.0.0.1 only
    --directory      the server's own folder: its host key (host_ed25519, written here when
                     missing, with host_ed25519.pub) and the authorized client keys
                     (authorized_keys, read again at every connection)
    --home           HOME of every session, and the folder commands start in and SFTP's
                     relative paths start from
    --log            where to log (asyncssh's own log at INFO, and failed sessions);
                     standard error when not given
    --pid-file       where to write the server's PID once it listens
    --parent-pid     exit once this process is gone (the test run that started the server)
    --password       a password that password and keyboard-interactive logins accept; without
                     it only keys are accepted
    --no-sftp        refuse the sftp subsystem, as a box without an sftp server does
    --force-command  run PROGRAM instead of every requested command, which finds that
                     command in SSH_ORIGINAL_COMMAND (sshd's ForceCommand)

It logs "listening on 127.0.0.1:PORT" once it accepts connections. What a session gets, as
OpenSSH gives it:

  * commands run as `SHELL -c COMMAND` with the user's login shell from the passwd database, as
    a new session (and process group) leader, in HOME, with HOME, USER, LOGNAME, SHELL, PATH,
    SHLVL=1 and SSH_CONNECTION/SSH_CLIENT set, plus the variables the client sent;
  * with a PTY the command gets a real terminal (a new pseudo-terminal as its controlling
    terminal, with TERM, the window size and the terminal modes the client asked for, resized
    when the client says so);
  * the sftp subsystem serves the whole filesystem (absolute paths are what they say);
  * TCP forwarding both ways, to and from 127.0.0.1 (a remote listener asked for on another
    address is refused).
"""

import argparse
import asyncio
import fcntl
import logging
import os
import pwd
import signal
import struct
import termios
import warnings

# Debian's python3-cryptography warns, at import, that asyncssh offers ciphers it deprecated
# (Blowfish, CAST5, SEED): noise in every server log, and no cipher rws uses.
warnings.filterwarnings("ignore", message=".* has been deprecated")

import asyncssh  # noqa: E402  (after the warning filter, which must come first)

log = logging.getLogger("asyncssh_server")

# Signals whose disposition a child must not inherit from whoever started this server: a test
# runner may start it with SIGINT ignored (as a shell does for a job in the background), and a
# `sleep` that ignores SIGINT would not stop on Ctrl+C. Python itself ignores SIGPIPE.
SIGNALS_RESET_FOR_CHILDREN = (
    signal.SIGINT, signal.SIGQUIT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE,
    signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU, signal.SIGCHLD,
)

READ_SIZE = 65536

# The terminal modes a client sends with its PTY request (RFC 4254 section 8; IUTF8 from RFC 8160),
# by opcode: the termios name of each, grouped by the word of `struct termios` it lives in. A name
# Linux lacks (VDSUSP, VSTATUS, VFLUSH) is left out; the line speeds mean nothing to a PTY.
CONTROL_CHARACTERS = {
    1: "VINTR", 2: "VQUIT", 3: "VERASE", 4: "VKILL", 5: "VEOF", 6: "VEOL", 7: "VEOL2", 8: "VSTART",
    9: "VSTOP", 10: "VSUSP", 12: "VREPRINT", 13: "VWERASE", 14: "VLNEXT", 16: "VSWTC", 18: "VDISCARD",
}
INPUT_FLAGS = {
    30: "IGNPAR", 31: "PARMRK", 32: "INPCK", 33: "ISTRIP", 34: "INLCR", 35: "IGNCR", 36: "ICRNL",
    37: "IUCLC", 38: "IXON", 39: "IXANY", 40: "IXOFF", 41: "IMAXBEL", 42: "IUTF8",
}
LOCAL_FLAGS = {
    50: "ISIG", 51: "ICANON", 52: "XCASE", 53: "ECHO", 54: "ECHOE", 55: "ECHOK", 56: "ECHONL",
    57: "NOFLSH", 58: "TOSTOP", 59: "IEXTEN", 60: "ECHOCTL", 61: "ECHOKE", 62: "PENDIN",
}
OUTPUT_FLAGS = {70: "OPOST", 71: "OLCUC", 72: "ONLCR", 73: "OCRNL", 74: "ONOCR", 75: "ONLRET"}
CONTROL_FLAGS = {92: "PARENB", 93: "PARODD"}
CHARACTER_SIZES = {90: "CS7", 91: "CS8"}
# Python's termios has no IUTF8 before 3.12: Linux's value.
LINUX_IUTF8 = 0o040000
# A control character of 255 in a mode means "disabled", which Linux spells 0 (_POSIX_VDISABLE).
DISABLED_CHARACTER = 255
# Where each word of `struct termios` is in the list tcgetattr returns.
INPUT_WORD, OUTPUT_WORD, CONTROL_WORD, LOCAL_WORD, CHARACTERS = 0, 1, 2, 3, 6
FLAG_TABLES = {
    INPUT_WORD: INPUT_FLAGS, OUTPUT_WORD: OUTPUT_FLAGS, CONTROL_WORD: CONTROL_FLAGS, LOCAL_WORD: LOCAL_FLAGS,
}


def reset_signals():
    """Runs in a child between fork and exec: default dispositions, nothing blocked."""
    for number in SIGNALS_RESET_FOR_CHILDREN:
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


def take_terminal():
    """Runs in a PTY's child after setsid: makes its standard input, the PTY, its controlling terminal."""
    reset_signals()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def termios_value(name):
    if name == "IUTF8":
        return getattr(termios, name, LINUX_IUTF8)
    return getattr(termios, name, None)


def with_flag(word, flag, enabled):
    return word | flag if enabled else word & ~flag


def apply_terminal_modes(descriptor, modes):
    """Sets the modes the client asked for on the terminal, as sshd does before the command starts."""
    attributes = termios.tcgetattr(descriptor)
    for opcode, value in modes.items():
        if opcode in CONTROL_CHARACTERS:
            index = termios_value(CONTROL_CHARACTERS[opcode])
            if index is not None:
                character = 0 if value == DISABLED_CHARACTER else value & 0xFF
                attributes[CHARACTERS][index] = bytes([character])
        elif opcode in CHARACTER_SIZES:
            if value:
                size = termios_value(CHARACTER_SIZES[opcode])
                attributes[CONTROL_WORD] = (attributes[CONTROL_WORD] & ~termios.CSIZE) | size
        else:
            for word, table in FLAG_TABLES.items():
                flag = termios_value(table[opcode]) if opcode in table else None
                if flag is not None:
                    attributes[word] = with_flag(attributes[word], flag, value)
    termios.tcsetattr(descriptor, termios.TCSANOW, attributes)


def set_window_size(descriptor, width, height, pixel_width, pixel_height):
    """Tells the terminal its size; the kernel sends SIGWINCH to its foreground group on a change."""
    size = struct.pack("HHHH", height, width, pixel_height, pixel_width)
    fcntl.ioctl(descriptor, termios.TIOCSWINSZ, size)


class Settings:
    """What the command line asked for, shared by every connection."""

    def __init__(self, arguments):
        self.directory = arguments.directory
        self.home = arguments.home
        self.password = arguments.password
        self.force_command = arguments.force_command
        account = pwd.getpwuid(os.getuid())
        self.user = account.pw_name
        self.shell = account.pw_shell or "/bin/sh"

    @property
    def authorized_keys(self):
        return os.path.join(self.directory, "authorized_keys")


class TestServer(asyncssh.SSHServer):
    """Authentication and forwarding decisions for one connection."""

    def __init__(self, settings):
        self.settings = settings
        self.connection = None

    def connection_made(self, conn):
        self.connection = conn

    def begin_auth(self, username):
        # Read per connection, so that a key the test authorizes later counts.
        self.connection.set_authorized_keys(self.settings.authorized_keys)
        return True

    def public_key_auth_supported(self):
        return True

    def password_auth_supported(self):
        return self.settings.password is not None

    def validate_password(self, username, password):
        return password == self.settings.password

    def kbdint_auth_supported(self):
        return self.settings.password is not None

    def get_kbdint_challenge(self, username, lang, submethods):
        # One round, one hidden prompt: (name, instructions, language, [(prompt, echo)]).
        return "", "", "", [("Password: ", False)]

    def validate_kbdint_response(self, username, responses):
        return len(responses) == 1 and responses[0] == self.settings.password

    def connection_requested(self, dest_host, dest_port, orig_host, orig_port):
        # ssh -L: asyncssh opens the connection to the destination itself.
        return True

    def server_requested(self, listen_host, listen_port):
        # ssh -R: asyncssh listens and opens a forwarded-tcpip channel per connection.
        return listen_host in ("127.0.0.1", "localhost")


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


async def copy_to_channel(source, destination):
    """Copies a subprocess's output to the channel until it ends (or the channel does)."""
    while True:
        data = await source.read(READ_SIZE)
        if not data:
            return
        try:
            destination.write(data)
            await destination.drain()
        except (BrokenPipeError, ConnectionError, asyncssh.Error):
            return


async def copy_from_channel(source, destination):
    """Copies the channel's input to a subprocess, closing its input at the channel's end."""
    try:
        while True:
            try:
                data = await source.read(READ_SIZE)
            except asyncssh.TerminalSizeChanged:
                continue
            if not data:
                break
            destination.write(data)
            await destination.drain()
    except (BrokenPipeError, ConnectionResetError):
        return
    destination.close()


async def run_without_terminal(settings, process):
    """An exec (or shell) request without a PTY: the command's stdio are pipes."""
    environment = session_environment(settings, process, None)
    arguments = command_line(settings, process, environment)
    child = await asyncio.create_subprocess_exec(
        *arguments, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, env=environment, cwd=settings.home,
        start_new_session=True, preexec_fn=reset_signals)
    feeding = asyncio.ensure_future(copy_from_channel(process.stdin, child.stdin))
    # As sshd does, the session ends when the command has exited and its output has ended
    # (a background child that keeps the output open keeps the session too).
    await asyncio.gather(
        copy_to_channel(child.stdout, process.stdout),
        copy_to_channel(child.stderr, process.stderr))
    returncode = await child.wait()
    feeding.cancel()
    exit_with(process, returncode)


async def run_on_terminal(settings, process):
    """A request with a PTY: the command runs on a new pseudo-terminal, its controlling terminal."""
    loop = asyncio.get_running_loop()
    terminal_type = process.get_terminal_type()
    environment = session_environment(settings, process, terminal_type)
    arguments = command_line(settings, process, environment)
    controller, terminal = os.openpty()
    apply_terminal_modes(terminal, process.term_modes)
    set_window_size(terminal, *process.get_terminal_size())
    try:
        child = await asyncio.create_subprocess_exec(
            *arguments, stdin=terminal, stdout=terminal, stderr=terminal, env=environment,
            cwd=settings.home, start_new_session=True, preexec_fn=take_terminal)
    finally:
        os.close(terminal)
    os.set_blocking(controller, False)

    output_ended = loop.create_future()

    def forward_output():
        try:
            data = os.read(controller, READ_SIZE)
        except BlockingIOError:
            return
        except OSError:
            # EIO: every process that had the terminal open has closed it.
            data = b""
        if data:
            process.stdout.write(data)
            return
        loop.remove_reader(controller)
        if not output_ended.done():
            output_ended.set_result(None)

    loop.add_reader(controller, forward_output)

    async def forward_input():
        while True:
            try:
                data = await process.stdin.read(READ_SIZE)
            except asyncssh.TerminalSizeChanged as change:
                set_window_size(
                    controller, change.width, change.height, change.pixwidth, change.pixheight)
                continue
            if not data:
                return  # sshd, too, leaves a terminal's program running at the end of its input
            while data:
                try:
                    written = os.write(controller, data)
                except BlockingIOError:
                    await asyncio.sleep(0.01)
                    continue
                except OSError:
                    return
                data = data[written:]

    typing = asyncio.ensure_future(forward_input())
    returncode = await child.wait()
    # What the command printed last may still be in the terminal; a background process that
    # keeps the terminal open does not keep the session beyond a second.
    try:
        await asyncio.wait_for(asyncio.shield(output_ended), timeout=1)
    except asyncio.TimeoutError:
        pass
    loop.remove_reader(controller)
    typing.cancel()
    os.close(controller)
    exit_with(process, returncode)


def session_handler(settings):
    """The process factory: one call per session channel that asked for a command or a shell."""

    async def handle(process):
        try:
            if process.get_terminal_type() is not None:
                await run_on_terminal(settings, process)
            else:
                await run_without_terminal(settings, process)
        except Exception as error:  # any failure: logged, and the client sees why
            log.exception("session failed: %r", error)
            try:
                process.stderr.write(f"asyncssh test server: {error}\n".encode())
                process.exit(255)
            except (BrokenPipeError, ConnectionError, asyncssh.Error):
                pass

    return handle


def host_key(directory):
    """The server's ed25519 host key, generated into its folder on the first start."""
    path = os.path.join(directory, "host_ed25519")
    if not os.path.exists(path):
        key = asyncssh.generate_private_key("ssh-ed25519", comment="rws-asyncssh-test")
        key.write_private_key(path)
        key.write_public_key(path + ".pub")
    return path


def parse_arguments():
    parser = argparse.ArgumentParser(description="asyncssh SSH server for rws's tests (127.0.0.1 only)")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--directory", required=True)
    parser.add_argument("--home", required=True)
    parser.add_argument("--log")
    parser.add_argument("--pid-file")
    parser.add_argument("--parent-pid", type=int)
    parser.add_argument("--password")
    parser.add_argument("--no-sftp", action="store_true")
    parser.add_argument("--force-command")
    return parser.parse_args()


async def serve(arguments):
    settings = Settings(arguments)
    await asyncssh.create_server(
        lambda: TestServer(settings), "127.0.0.1", arguments.port,
        server_host_keys=[host_key(arguments.directory)],
        process_factory=session_handler(settings),
        # Bytes in and out, as a server passes them; no line editing of its own on a PTY.
        encoding=None, line_editor=False,
        sftp_factory=None if arguments.no_sftp else True,
        allow_scp=False, agent_forwarding=False, x11_forwarding=False)
    log.info("listening on 127.0.0.1:%d", arguments.port)
    if arguments.pid_file:
        with open(arguments.pid_file, "w", encoding="utf-8") as pid_file:
            pid_file.write(f"{os.getpid()}\n")
    if arguments.parent_pid:
        await wait_for_exit_of(arguments.parent_pid)
        log.info("process %d has ended: stopping", arguments.parent_pid)
    else:
        await asyncio.Event().wait()


async def wait_for_exit_of(pid):
    """Returns once `pid` is gone, looking every second."""
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        except PermissionError:
            pass  # it exists, as another user's process
        await asyncio.sleep(1)


def main():
    arguments = parse_arguments()
    logging.basicConfig(
        filename=arguments.log, level=logging.INFO,
        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    # SFTP's relative paths start from here, as sshd's sftp server starts in HOME.
    os.chdir(arguments.home)
    asyncio.run(serve(arguments))


if __name__ == "__main__":
    main()
