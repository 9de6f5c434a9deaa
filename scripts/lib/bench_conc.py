"""exec_conc: where the time of 50 concurrent `sleep 0.2; echo x` goes, rws against plain C libssh2.

Every run is one client process doing the shared harness's exec_conc on one connection (the
contract: its last stdout line is the wall time in ms). The C client is ../shared/bench's
clients/libssh2_bench.c, compiled here into bench-out/. Two kinds of run, alternated:

* plain: BENCH_CONC_CMD = `sleep 0.2; echo x` -- the figure the target is about;
The asyncssh client of ../shared/bench runs too when asyncssh is installed: it sends all 50
opens and execs without waiting (no libssh2 turn-taking), so its start spread is the server's
own pace.

* traced: BENCH_CONC_CMD = `echo $EPOCHREALTIME >> LOG; sleep 0.2; echo x` -- the same output,
  but each command first appends the time it started on the server (bash's clock, no fork)
  to a log. The spread from the first to the last start is the time the client and sshd need
  to open and start the 50 channels one after another; the rest of the wall time is the
  200 ms sleep, the first channel's set-up and the last command's exit and close.
"""
import os, statistics, subprocess, sys, tempfile

PLAIN = "sleep 0.2; echo x"


def build_c_client(out_dir="bench-out"):
    source = "../shared/bench/clients/libssh2_bench.c"
    if not os.path.exists(source):
        raise SystemExit(f"error: {source} is missing: --conc compares against the shared harness's C client")
    os.makedirs(out_dir, exist_ok=True)
    binary = f"{out_dir}/libssh2_bench"
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libssh2"], capture_output=True, text=True, check=True).stdout.split()
    subprocess.run(["cc", "-O2", "-o", binary, source, *flags], check=True)
    return [os.path.abspath(binary)]


def asyncssh_client():
    """../shared/bench's asyncssh client, which pipelines all opens and execs: the server's own pace."""
    script = "../shared/bench/clients/asyncssh_client.py"
    if subprocess.run([sys.executable, "-c", "import asyncssh"], capture_output=True).returncode != 0 or not os.path.exists(script):
        print("  (asyncssh column skipped: `python3 -m pip install asyncssh`, as ../shared/bench/run-all.sh does)", file=sys.stderr)
        return None
    return [sys.executable, os.path.abspath(script)]


def run(command, env, conc_cmd, count=50):
    out = subprocess.run([*command, "exec_conc"], env=dict(env, BENCH_CONC_N=str(count), BENCH_CONC_CMD=conc_cmd),
                         capture_output=True, text=True, timeout=180)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exec_conc failed: {out.stderr.strip()[-1000:]}")
    return float(out.stdout.strip().splitlines()[-1])


def traced(command, env):
    """(wall ms, start spread ms, mean gap between consecutive starts ms)."""
    fd, log = tempfile.mkstemp(prefix="rws-conc-", suffix=".log")
    os.close(fd)
    try:
        wall = run(command, env, f"echo $EPOCHREALTIME >> {log}; {PLAIN}")
        with open(log) as f:
            starts = sorted(float(line.replace(",", ".")) for line in f if line.strip())
        if len(starts) != 50:
            raise RuntimeError(f"{len(starts)} start times logged, expected 50")
        spread = (starts[-1] - starts[0]) * 1000
        return wall, spread, spread / (len(starts) - 1)
    finally:
        os.unlink(log)


def measure(clients, env, runs, label):
    """clients: [(name, command)]; returns {name: {plain: [...], wall: [...], spread: [...], gap: [...]}}."""
    results = {name: {"plain": [], "wall": [], "spread": [], "gap": []} for name, _ in clients}
    for r in range(runs):
        order = clients if r % 2 == 0 else list(reversed(clients))
        for name, command in order:
            results[name]["plain"].append(run(command, env, PLAIN))
            wall, spread, gap = traced(command, env)
            results[name]["wall"].append(wall)
            results[name]["spread"].append(spread)
            results[name]["gap"].append(gap)
        print(f"  exec_conc {label} run {r + 1}/{runs}: " + ", ".join(
            f"{name} {results[name]['plain'][-1]:.0f} ms (spread {results[name]['spread'][-1]:.0f})" for name, _ in clients),
            file=sys.stderr)
    return results


def scaling(clients, env, counts, runs):
    """Wall time of exec_conc for each count of commands: the slope is the serialised cost per channel."""
    results = {name: {} for name, _ in clients}
    for count in counts:
        for name, command in clients:
            results[name][count] = statistics.median(run(command, env, PLAIN, count) for _ in range(runs))
        print(f"  exec_conc scaling N={count}: " + ", ".join(f"{n} {results[n][count]:.0f} ms" for n, _ in clients), file=sys.stderr)
    return results


def print_scaling(results, runs):
    counts = sorted(next(iter(results.values())))
    print(f"\nexec_conc wall (ms) against the number of concurrent commands (median of {runs}); "
          "slope = serialised cost per channel, from a least-squares line\n")
    print("| client | " + " | ".join(f"N={n}" for n in counts) + " | slope ms/channel | intercept ms |")
    print("|---|" + "---|" * len(counts) + "---|---|")
    for name, by_count in results.items():
        xs, ys = counts, [by_count[n] for n in counts]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        print(f"| {name} | " + " | ".join(f"{y:.0f}" for y in ys) + f" | {slope:.2f} | {my - slope * mx:.0f} |")


def med(values):
    return f"{statistics.median(values):.1f} ({min(values):.0f}–{max(values):.0f})"


def print_table(all_results, runs):
    print(f"\nexec_conc: 50 × `{PLAIN}` at once on one connection; {runs} runs per cell, median (min–max), ms\n")
    print("| server | client | wall (plain) | wall (traced) | start spread, first → 50th | per channel | rest = wall − spread − 200 |")
    print("|---|---|---|---|---|---|---|")
    for label, results in all_results.items():
        for name, r in results.items():
            rest = [w - s - 200 for w, s in zip(r["wall"], r["spread"])]
            print(f"| {label} | {name} | {med(r['plain'])} | {med(r['wall'])} | {med(r['spread'])} | "
                  f"{statistics.median(r['gap']):.2f} | {med(rest)} |")
    for label, results in all_results.items():
        if "rws" in results:
            m = statistics.median(results["rws"]["plain"])
            print(f"\n{label}: rws exec_conc target ≤ 300 ms: {'met' if m <= 300 else 'NOT met'} ({m:.0f} ms median)")
