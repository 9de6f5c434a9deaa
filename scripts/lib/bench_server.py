"""The throwaway sshd of scripts/lib/bench.py: the tests' sandbox server (`rws-sandbox start`), and
what the clients need to reach it: the ssh command line and the BENCH_* environment of ../shared/bench.
"""
import os
import shlex
import shutil
import subprocess
import tempfile

# What libssh2 1.10 negotiates, so that every client does the same cryptography.
ALGORITHMS = ["-o", "KexAlgorithms=curve25519-sha256@libssh.org", "-o", "HostKeyAlgorithms=ssh-ed25519",
              "-c", "aes128-ctr", "-m", "hmac-sha2-256"]


class Server:
    """The sandbox sshd (`rws-sandbox`, the tests' server) with what the benchmark clients need."""

    program = None  # the rws-sandbox executable (--sandbox)

    def __init__(self, max_sessions=100):
        self.dir = tempfile.mkdtemp(prefix="rws-bench-sshd-")
        printed = subprocess.run([self.program, "start", self.dir, "--max-sessions", str(max_sessions)],
                                 check=True, capture_output=True, text=True).stdout
        variables = dict(shlex.split(line)[0].split("=", 1) for line in printed.splitlines() if line)
        self.port, self.user = int(variables["SANDBOX_PORT"]), variables["SANDBOX_USER"]
        self.key, self.known_hosts = variables["SANDBOX_KEY"], variables["SANDBOX_KNOWN_HOSTS"]

    def ssh_base(self):
        """The ssh command line up to and including the destination, with ALGORITHMS."""
        return ["ssh", "-F", "/dev/null", "-i", self.key, "-p", str(self.port), "-o", "BatchMode=yes",
                "-o", "IdentitiesOnly=yes", "-o", f"UserKnownHostsFile={self.known_hosts}", "-o", "StrictHostKeyChecking=yes",
                *ALGORITHMS, f"{self.user}@127.0.0.1"]

    def bench_env(self, settings):
        """The environment of a ../shared/bench client of this server, with `settings` added."""
        env = dict(os.environ, BENCH_HOST="127.0.0.1", BENCH_PORT=str(self.port), BENCH_USER=self.user,
                   BENCH_KEY=self.key, BENCH_KEY_PUB=f"{self.key}.pub", BENCH_KNOWN_HOSTS=self.known_hosts)
        env.update({k: str(v) for k, v in settings.items()})
        return env

    def stop(self):
        subprocess.run([self.program, "stop", self.dir], check=True)
        shutil.rmtree(self.dir, ignore_errors=True)
