"""Tail latency: rws against a plain C libssh2 client, sample by sample, in one run.

For each of exec_latency (`true` over exec), shell_echo (a key typed into a PTY login shell
until it is echoed) and sftp_stat (one SFTP lstat), both clients run on one connection each,
one operation at a time, against one throwaway sshd. The N operations are split into rounds
that alternate the two clients, so that load from other processes on the machine hits both
alike; every operation's latency is kept and pooled over the rounds.

The C client is scripts/lib/libssh2_latency.c (derived from ../shared/bench's
libssh2_bench.c: the same libssh2 calls), compiled here with cc and pkg-config.
"""
import json, os, subprocess, sys, tempfile

TARGETS = "p50 <= 1.05 x C libssh2 p50; p99 <= 3 x p50; max < 100 ms"
BENCHMARKS = [("exec_latency", "`true` over exec (open, exec, read to EOF, exit status, close)"),
              ("shell_echo", "key to echo in a PTY login shell (`a`, then DEL)"),
              ("sftp_stat", "one SFTP lstat of /etc/passwd")]


def build_c_reference(out_dir="bench-out"):
    os.makedirs(out_dir, exist_ok=True)
    binary = f"{out_dir}/libssh2_latency"
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libssh2"], capture_output=True, text=True, check=True).stdout.split()
    subprocess.run(["cc", "-O2", "-Wall", "-Werror", "-o", binary, "scripts/lib/libssh2_latency.c", *flags], check=True)
    return os.path.abspath(binary)


def percentile(sorted_samples, fraction):
    """Nearest rank, as rws-bench and the C client compute it."""
    rank = -(-fraction * len(sorted_samples) // 1)
    return sorted_samples[min(len(sorted_samples), max(1, int(rank))) - 1]


def run_once(command, name, env, count):
    """One client process, `count` operations; returns (samples in ms, the stderr JSON)."""
    with tempfile.NamedTemporaryFile(prefix="rws-lat-", suffix=".txt", delete=False) as f:
        path = f.name
    try:
        run_env = dict(env, BENCH_LAT_N=str(count), BENCH_LATENCY_FILE=path)
        out = subprocess.run([command, name], env=run_env, capture_output=True, text=True, timeout=1800)
        if out.returncode != 0:
            raise RuntimeError(f"{os.path.basename(command)} {name} failed ({out.returncode}): {out.stderr.strip()[-2000:]}")
        with open(path) as f:
            samples = [float(line) for line in f if line.strip()]
        info = {}
        for line in out.stderr.splitlines():
            if line.startswith("bench-latency "):
                info = json.loads(line[len("bench-latency "):])
        if len(samples) != count:
            raise RuntimeError(f"{command} {name}: {len(samples)} samples, expected {count}")
        return samples, info
    finally:
        os.unlink(path)


def summarize(samples):
    s = sorted(samples)
    return {"n": len(s), "p50": percentile(s, 0.5), "p99": percentile(s, 0.99), "p999": percentile(s, 0.999),
            "max": s[-1], "mean": sum(s) / len(s), "over100ms": sum(1 for x in s if x >= 100),
            "over900ms": sum(1 for x in s if x >= 900)}


def measure(server_env, clients, count, rounds, names):
    """clients: [(label, command)], rws first, the C reference second, then any others."""
    results = {}
    per_round = max(1, count // rounds)
    for name in names:
        pooled = {label: [] for label, _ in clients}
        counters = {label: None for label, _ in clients}  # None: that build has no SSHConnection.statistics
        for r in range(rounds):
            order = clients if r % 2 == 0 else list(reversed(clients))
            for label, command in order:
                samples, info = run_once(command, name, server_env, per_round)
                pooled[label].extend(samples)
                if "stalledPolls" in info:
                    before = counters[label] or {"stalledPolls": 0, "polls": 0}
                    counters[label] = {k: before[k] + int(info[k]) for k in ("stalledPolls", "polls")}
            print(f"  {name} round {r + 1}/{rounds}: " + ", ".join(
                f"{label} p50 {summarize(pooled[label])['p50']:.3f} ms" for label, _ in clients), file=sys.stderr)
        results[name] = {label: summarize(v) for label, v in pooled.items()}
        for label, _ in clients:
            results[name][label].update(counters[label] or {"stalledPolls": None, "polls": None})
    return results


def verdicts(r, c):
    return [("p50 <= 1.05 x C", r["p50"] / c["p50"], r["p50"] <= 1.05 * c["p50"]),
            ("p99 <= 3 x p50", r["p99"] / r["p50"], r["p99"] <= 3 * r["p50"]),
            ("max < 100 ms", r["max"], r["max"] < 100)]


def print_table(results, count, rounds):
    print(f"\nLatency, one operation at a time on one connection: {count} per client "
          f"in {rounds} alternating rounds; ms; targets: {TARGETS}\n")
    print("| benchmark | client | p50 | p99 | p99.9 | max | ≥100 ms | stalled polls | p50 / C p50 | p99/p50 | verdicts |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, _ in BENCHMARKS:
        if name not in results:
            continue
        c = results[name]["libssh2"]
        for label, s in results[name].items():
            text = "" if label == "libssh2" else ", ".join(
                f"{check}: {'met' if ok else 'NOT met'}" for check, _, ok in verdicts(s, c))
            stalled = s.get("stalledPolls")
            print(f"| {name} | {'libssh2 (C)' if label == 'libssh2' else label} | {s['p50']:.3f} | {s['p99']:.3f} | "
                  f"{s['p999']:.3f} | {s['max']:.1f} | {s['over100ms']} | {'–' if stalled is None else stalled} | "
                  f"{s['p50'] / c['p50']:.3f} | {s['p99'] / s['p50']:.2f} | {text} |")
