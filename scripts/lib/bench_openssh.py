"""rws against plain OpenSSH, measured in one run against one throwaway sshd.

Each benchmark runs the rws client (`rws-bench <name>`, one process per sample, the contract of
../shared/bench) and the equivalent with the `ssh` command, round robin, and reports medians and
the ratio rws/openssh. Algorithms are pinned to what libssh2 1.10 negotiates (curve25519,
ed25519, aes128-ctr, hmac-sha2-256) so that both columns do the same cryptography.
"""
import json
import os
import statistics
import subprocess
import sys
import time

from bench_conc import PLAIN
from bench_server import Server

BENCHMARKS = [  # name, unit, higher is better
    ("connect", "ms", False), ("exec_seq", "ms/cmd", False), ("exec_conc", "ms wall", False), ("bulk", "MB/s", True)]
CONC_TARGET_MS = 300


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
        procs = [subprocess.Popen(self.mux + [PLAIN], stdout=subprocess.PIPE) for _ in range(self.settings["BENCH_CONC_N"])]
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


def run_rws(client, name, env):
    """One `rws-bench NAME` process; its last stdout line is the sample."""
    out = subprocess.run([client, name], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"rws-bench {name} failed: {out.stderr.strip()}")
    return float(out.stdout.strip().splitlines()[-1])


def measure(client, settings, reps):
    """{benchmark: {"rws": summary, "openssh": summary, "unit": unit}}, the two alternated `reps` times."""
    server = Server()
    results = {}
    try:
        env = server.bench_env(settings)
        openssh = OpenSSH(server, settings)
        try:
            for name, unit, _ in BENCHMARKS:
                samples = {"rws": [], "openssh": []}
                for _ in range(reps):
                    samples["rws"].append(run_rws(client, name, env))
                    samples["openssh"].append(getattr(openssh, name)())
                results[name] = {k: {"median": statistics.median(v), "min": min(v), "max": max(v)} for k, v in samples.items()}
                results[name]["unit"] = unit
                print(f"  {name}: rws {results[name]['rws']['median']:.2f} {unit}, "
                      f"openssh {results[name]['openssh']['median']:.2f} {unit}", file=sys.stderr)
        finally:
            openssh.close()
    finally:
        server.stop()
    return results


def main(options):
    """The comparison; a Markdown table on stdout, bench-out/results.json."""
    reps = options.reps or (2 if options.quick else 5)
    settings = {"BENCH_SEQ_N": 200, "BENCH_CONC_N": 50, "BENCH_CONC_CMD": PLAIN,
                "BENCH_BULK_BYTES": 200_000_000 if options.quick else 1_000_000_000}
    results = measure(options.client, settings, reps)
    print(f"\nrws vs OpenSSH ssh on 127.0.0.1 ({reps} runs each, medians; algorithms pinned to libssh2 1.10's set)\n")
    print("| benchmark | unit | rws | openssh | rws/openssh |")
    print("|---|---|---|---|---|")
    for name, unit, higher in BENCHMARKS:
        r, o = results[name]["rws"], results[name]["openssh"]
        ratio = r["median"] / o["median"]
        verdict = ("faster" if ratio > 1 else "slower") if higher else ("faster" if ratio < 1 else "slower")
        print(f"| {name} | {unit} | {r['median']:.2f} ({r['min']:.2f}-{r['max']:.2f}) | "
              f"{o['median']:.2f} ({o['min']:.2f}-{o['max']:.2f}) | {ratio:.2f} ({verdict}) |")
    conc = results["exec_conc"]["rws"]["median"]
    met = "met" if conc < CONC_TARGET_MS else "NOT met"
    print(f"\nexec_conc target: 50 x sleep 0.2 under {CONC_TARGET_MS} ms wall: {met} ({conc:.0f} ms)")
    os.makedirs("bench-out", exist_ok=True)
    with open("bench-out/results.json", "w") as f:
        json.dump({"reps": reps, "settings": settings, "results": results}, f, indent=2)
