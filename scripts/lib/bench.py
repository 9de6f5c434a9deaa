"""rws against plain OpenSSH, measured in one run against one throwaway sshd.

Each benchmark runs the rws client (`rws-bench <name>`, one process per sample, the contract of
../shared/bench) and the equivalent with the `ssh` command, round robin, and reports medians and
the ratio rws/openssh. Algorithms are pinned to what libssh2 1.10 negotiates (curve25519,
ed25519, aes128-ctr, hmac-sha2-256) so that both columns do the same cryptography.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

import shlex
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_conc, bench_latency  # noqa: E402

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
        return ["ssh", "-F", "/dev/null", "-i", self.key, "-p", str(self.port), "-o", "BatchMode=yes",
                "-o", "IdentitiesOnly=yes", "-o", f"UserKnownHostsFile={self.known_hosts}", "-o", "StrictHostKeyChecking=yes",
                *ALGORITHMS, f"{self.user}@127.0.0.1"]

    def bench_env(self, settings):
        env = dict(os.environ, BENCH_HOST="127.0.0.1", BENCH_PORT=str(self.port), BENCH_USER=self.user,
                   BENCH_KEY=self.key, BENCH_KEY_PUB=f"{self.key}.pub", BENCH_KNOWN_HOSTS=self.known_hosts)
        env.update({k: str(v) for k, v in settings.items()})
        return env

    def stop(self):
        subprocess.run([self.program, "stop", self.dir], check=True)
        shutil.rmtree(self.dir, ignore_errors=True)


class OpenSSH:
    """The same benchmarks with the ssh command; a ControlMaster for everything but connect."""

    def __init__(self, server, settings):
        self.server, self.settings = server, settings
        self.socket = f"{server.dir}/mux"
        base = server.ssh_base()
        subprocess.run(base[:-1] + ["-M", "-S", self.socket, "-o", "ControlPersist=yes", "-f", "-N", base[-1]], check=True)
        self.mux = base[:-1] + ["-S", self.socket, base[-1]]

    def connect(self):
        start = time.perf_counter()
        subprocess.run(self.server.ssh_base() + ["true"], check=True)
        return (time.perf_counter() - start) * 1000

    def exec_seq(self):
        n = self.settings["BENCH_SEQ_N"]
        start = time.perf_counter()
        for _ in range(n):
            subprocess.run(self.mux + ["true"], check=True)
        return (time.perf_counter() - start) * 1000 / n

    def exec_conc(self):
        start = time.perf_counter()
        procs = [subprocess.Popen(self.mux + ["sleep 0.2; echo x"], stdout=subprocess.PIPE)
                 for _ in range(self.settings["BENCH_CONC_N"])]
        outputs = [p.communicate()[0] for p in procs]
        elapsed = (time.perf_counter() - start) * 1000
        if any(o != b"x\n" for o in outputs) or any(p.returncode for p in procs):
            raise RuntimeError("openssh exec_conc: a command failed")
        return elapsed

    def bulk(self):
        n = self.settings["BENCH_BULK_BYTES"]
        start = time.perf_counter()
        subprocess.run(self.mux + [f"head -c {n} /dev/zero"], stdout=subprocess.DEVNULL, check=True)
        return n / (time.perf_counter() - start) / 1e6

    def close(self):
        subprocess.run(self.mux[:-1] + ["-O", "exit", self.mux[-1]], stderr=subprocess.DEVNULL, check=False)


BENCHMARKS = [  # name, unit, higher is better
    ("connect", "ms", False), ("exec_seq", "ms/cmd", False), ("exec_conc", "ms wall", False), ("bulk", "MB/s", True)]


def run_rws(client, name, env):
    out = subprocess.run([client, name], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"rws-bench {name} failed: {out.stderr.strip()}")
    return float(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--client", required=True)
    parser.add_argument("--sandbox", required=True, help="the rws-sandbox executable that starts the throwaway sshd")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--reps", type=int)
    parser.add_argument("--latency", action="store_true", help="only the tail-latency benchmarks, against the C reference")
    parser.add_argument("--latency-n", type=int, default=20000, help="operations per client and benchmark (--latency)")
    parser.add_argument("--rounds", type=int, default=4, help="alternating rounds the operations are split into (--latency)")
    parser.add_argument("--latency-benchmarks", default="exec_latency,shell_echo,sftp_stat")
    parser.add_argument("--latency-also", action="append", default=[], metavar="LABEL=PATH",
                        help="another rws-bench build in the same rounds, e.g. an older commit (--latency)")
    parser.add_argument("--conc", action="store_true", help="only exec_conc, traced, against the shared C libssh2 client")
    parser.add_argument("--conc-runs", type=int, default=7)
    options, _ = parser.parse_known_args()  # the rest is for ../shared/bench (--shared)
    Server.program = options.sandbox
    if options.latency:
        return latency_main(options)
    if options.conc:
        return conc_main(options)
    reps = options.reps or (2 if options.quick else 5)
    settings = {"BENCH_SEQ_N": 200, "BENCH_CONC_N": 50, "BENCH_CONC_CMD": "sleep 0.2; echo x",
                "BENCH_BULK_BYTES": 200_000_000 if options.quick else 1_000_000_000}
    server = Server()
    results = {}
    try:
        env = server.bench_env(settings)
        openssh = OpenSSH(server, settings)
        try:
            for name, unit, _ in BENCHMARKS:
                samples = {"rws": [], "openssh": []}
                for _ in range(reps):
                    samples["rws"].append(run_rws(options.client, name, env))
                    samples["openssh"].append(getattr(openssh, name)())
                results[name] = {k: {"median": statistics.median(v), "min": min(v), "max": max(v)} for k, v in samples.items()}
                results[name]["unit"] = unit
                print(f"  {name}: rws {results[name]['rws']['median']:.2f} {unit}, "
                      f"openssh {results[name]['openssh']['median']:.2f} {unit}", file=sys.stderr)
        finally:
            openssh.close()
    finally:
        server.stop()
    print(f"\nrws vs OpenSSH ssh on 127.0.0.1 ({reps} runs each, medians; algorithms pinned to libssh2 1.10's set)\n")
    print(f"| benchmark | unit | rws | openssh | rws/openssh |")
    print(f"|---|---|---|---|---|")
    for name, unit, higher in BENCHMARKS:
        r, o = results[name]["rws"], results[name]["openssh"]
        ratio = r["median"] / o["median"]
        verdict = ("faster" if ratio > 1 else "slower") if higher else ("faster" if ratio < 1 else "slower")
        print(f"| {name} | {unit} | {r['median']:.2f} ({r['min']:.2f}-{r['max']:.2f}) | "
              f"{o['median']:.2f} ({o['min']:.2f}-{o['max']:.2f}) | {ratio:.2f} ({verdict}) |")
    conc = results["exec_conc"]["rws"]["median"]
    print(f"\nexec_conc target: 50 x sleep 0.2 under 300 ms wall: {'met' if conc < 300 else 'NOT met'} ({conc:.0f} ms)")
    os.makedirs("bench-out", exist_ok=True)
    with open("bench-out/results.json", "w") as f:
        json.dump({"reps": reps, "settings": settings, "results": results}, f, indent=2)


def conc_main(options):
    c_client = bench_conc.build_c_client()
    results = {}
    peers = [("rws", [options.client]), ("libssh2 (C)", c_client)]
    asyncssh = bench_conc.asyncssh_client()
    if asyncssh:
        peers.append(("asyncssh", asyncssh))
    for max_sessions, clients in ((100, peers), (10, [("rws", [options.client])])):
        server = Server(max_sessions=max_sessions)
        try:
            label = f"MaxSessions {max_sessions}"
            runs = options.conc_runs if max_sessions == 100 else max(1, options.conc_runs // 3)
            results[label] = bench_conc.measure(clients, server.bench_env({}), runs, label)
            if max_sessions == 100:
                scaling = bench_conc.scaling(clients, server.bench_env({}), [1, 10, 25, 50, 75], 3)
        finally:
            server.stop()
    bench_conc.print_table(results, options.conc_runs)
    bench_conc.print_scaling(scaling, 3)
    os.makedirs("bench-out", exist_ok=True)
    with open("bench-out/conc.json", "w") as f:
        json.dump({"runs": results, "scaling": scaling}, f, indent=2)


def latency_main(options):
    c_client = bench_latency.build_c_reference()
    server = Server()
    try:
        clients = [("rws", options.client), ("libssh2", c_client)] + [tuple(a.split("=", 1)) for a in options.latency_also]
        results = bench_latency.measure(server.bench_env({}), clients, options.latency_n, options.rounds,
                                        options.latency_benchmarks.split(","))
    finally:
        server.stop()
    bench_latency.print_table(results, options.latency_n, options.rounds)
    os.makedirs("bench-out", exist_ok=True)
    with open("bench-out/latency.json", "w") as f:
        json.dump({"count": options.latency_n, "rounds": options.rounds, "results": results}, f, indent=2)


if __name__ == "__main__":
    main()
