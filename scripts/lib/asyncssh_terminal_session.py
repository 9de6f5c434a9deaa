"""A session with a terminal: the command runs on a new pseudo-terminal, its controlling terminal.

Part of the asyncssh test server (asyncssh_server.py): what a request with a PTY gets, as OpenSSH
gives it. The command gets a real terminal, with TERM, the window size and the terminal modes the
client asked for (asyncssh_terminal_modes.py), resized when the client says so.
"""

import asyncio
import fcntl
import os
import termios

import asyncssh

from asyncssh_command import READ_SIZE, command_line, exit_with, reset_signals, session_environment
from asyncssh_terminal_modes import apply_terminal_modes, set_window_size


def take_terminal():
    """Runs in a PTY's child after setsid: makes its standard input, the PTY, its controlling terminal."""
    reset_signals()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


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
