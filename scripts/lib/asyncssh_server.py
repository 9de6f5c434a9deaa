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

It logs "listening on 127.0.0.1:PORT" once it accepts connections. The sftp subsystem serves the
whole filesystem (absolute paths are what they say). The modules beside it hold the rest:
asyncssh_access.py (logins and forwarding), asyncssh_session.py (each session's command, which
asyncssh_command.py, asyncssh_pipe_session.py, asyncssh_terminal_session.py and
asyncssh_terminal_modes.py run as OpenSSH does).
"""

import argparse
import asyncio
import logging
import os
import sys
import warnings

# Debian's python3-cryptography warns, at import, that asyncssh offers ciphers it deprecated
# (Blowfish, CAST5, SEED): noise in every server log, and no cipher rws uses.
warnings.filterwarnings("ignore", message=".* has been deprecated")

# The imports below come after the warning filter, which must come first: they all import asyncssh.
import asyncssh  # noqa: E402

# The modules beside this script, whatever the current directory.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from asyncssh_access import Settings, TestServer  # noqa: E402
from asyncssh_session import session_handler  # noqa: E402

log = logging.getLogger("asyncssh_server")


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
