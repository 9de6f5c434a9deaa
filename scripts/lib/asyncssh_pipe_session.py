"""A session without a terminal: the command's standard input, output and error are pipes.

Part of the asyncssh test server (asyncssh_server.py): what an exec (or shell) request without a
PTY gets, with the channel's data copied to and from the command as sshd copies it.
"""

import asyncio

import asyncssh

from asyncssh_command import READ_SIZE, command_line, exit_with, reset_signals, session_environment


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
