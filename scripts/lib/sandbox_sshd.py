"""A throwaway OpenSSH sshd on 127.0.0.1 for the benchmark and the demo.

Keys, config, logs and the sessions' HOME (a sandbox: never the real home) live in one
directory. As a program:
    python3 sandbox_sshd.py start DIR [--max-sessions N]   # prints shell variables to eval
    python3 sandbox_sshd.py stop DIR
"""
import os, shutil, signal, socket, subprocess, sys, time


class SandboxSSHD:
    def __init__(self, directory, max_sessions=100):
        self.dir = os.path.abspath(directory)
        self.max_sessions = max_sessions
        self.home = f"{self.dir}/home"
        self.port = None
        self.process = None

    @property
    def user(self):
        return os.environ.get("USER") or subprocess.run(["id", "-un"], capture_output=True, text=True).stdout.strip()

    def start(self):
        d = self.dir
        os.makedirs(self.home, exist_ok=True)
        for name in ("host", "client"):
            if not os.path.exists(f"{d}/{name}"):
                subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "rws-sandbox", "-f", f"{d}/{name}"], check=True)
        shutil.copy(f"{d}/client.pub", f"{d}/authorized_keys")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        with open(f"{d}/sshd_config", "w") as f:
            f.write("\n".join([
                f"ListenAddress 127.0.0.1:{self.port}", f"HostKey {d}/host", f"PidFile {d}/sshd.pid",
                f"AuthorizedKeysFile {d}/authorized_keys", "PasswordAuthentication no", "KbdInteractiveAuthentication no",
                "UsePAM no", "StrictModes no", "PermitRootLogin yes", "Compression no", f"MaxSessions {self.max_sessions}",
                "MaxStartups 200:30:400",
                # The sessions' home is the sandbox; SHLVL=1 keeps Debian's bash from sourcing ~/.bashrc.
                f"SetEnv HOME={self.home} SHLVL=1", "Subsystem sftp internal-sftp", ""]))
        with open(f"{d}/host.pub") as f:
            key = " ".join(f.read().split()[:2])
        with open(f"{d}/known_hosts", "w") as f:
            f.write(f"[127.0.0.1]:{self.port} {key}\n")
        with open(f"{d}/ssh_config", "w") as f:
            f.write(f"Host sandbox\n  HostName 127.0.0.1\n  Port {self.port}\n  User {self.user}\n"
                    f"  IdentityFile {d}/client\n  IdentitiesOnly yes\n  UserKnownHostsFile {d}/known_hosts\n")
        if os.getuid() == 0:
            os.makedirs("/run/sshd", exist_ok=True)
        self.process = subprocess.Popen(["/usr/sbin/sshd", "-D", "-f", f"{d}/sshd_config", "-E", f"{d}/sshd.log"],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True)  # nothing may hold the caller's $(...) pipe open
        for _ in range(250):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.1).close()
                return self
            except OSError:
                time.sleep(0.02)
        raise SystemExit(f"sandbox sshd did not start; see {d}/sshd.log")

    def stop(self):
        pid = None
        try:
            with open(f"{self.dir}/sshd.pid") as f:
                pid = int(f.read().strip())
        except (OSError, ValueError):
            pass
        if pid:
            try:
                os.killpg(pid, signal.SIGTERM)  # the listener and every session under it
            except ProcessLookupError:
                pass
        if self.process:
            self.process.wait()


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("start", "stop"):
        raise SystemExit(__doc__)
    server = SandboxSSHD(sys.argv[2])
    if sys.argv[1] == "stop":
        server.stop()
        return
    server.start()
    print(f"SANDBOX_PORT={server.port}\nSANDBOX_USER={server.user}\nSANDBOX_HOME={server.home}\n"
          f"SANDBOX_KEY={server.dir}/client\nSANDBOX_KNOWN_HOSTS={server.dir}/known_hosts\n"
          f"SANDBOX_SSH_CONFIG={server.dir}/ssh_config")


if __name__ == "__main__":
    main()
