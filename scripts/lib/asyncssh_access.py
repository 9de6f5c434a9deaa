"""Who may log in to the asyncssh test server, and what a connection may forward.

Part of the asyncssh test server (asyncssh_server.py). Keys are checked against the server
folder's authorized_keys, read again at every connection; with --password, password and
keyboard-interactive logins accept that password too. TCP forwarding works both ways, to and
from 127.0.0.1: a remote listener asked for on another address is refused.
"""

import os
import pwd

import asyncssh


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
