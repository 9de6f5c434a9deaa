"""The session handler: runs the command of each session channel, on a terminal or on pipes.

Part of the asyncssh test server (asyncssh_server.py). A session that asked for a PTY runs its
command on a new pseudo-terminal (asyncssh_terminal_session.py), any other on pipes
(asyncssh_pipe_session.py); both start it as asyncssh_command.py says. A session that fails is
logged, and its client is told why.
"""

import logging

import asyncssh

from asyncssh_pipe_session import run_without_terminal
from asyncssh_terminal_session import run_on_terminal

# The server's one logger, under the entry point's name.
log = logging.getLogger("asyncssh_server")


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
