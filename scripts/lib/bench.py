"""The harness of `scripts/bench` (no area), `--latency` and `--conc`: rws-bench's client against
the same throwaway sshd as the other clients, in one run.

Usage: python3 scripts/lib/bench.py --client RWS-BENCH --sandbox RWS-SANDBOX [--quick] [--reps N]
           | --latency [--latency-n N] [--rounds R] [--latency-benchmarks a,b] [--latency-also LABEL=PATH]
           | --conc [--conc-runs N]
Run from the repository's root (scripts/bench does): the C references build from scripts/lib and
results go to bench-out/. Other arguments are left for ../shared/bench (scripts/bench --shared).

  (default)  rws against OpenSSH's ssh (bench_openssh.py): bench-out/results.json
  --latency  tail latency against a C libssh2 client (bench_latency.py): bench-out/latency.json
  --conc     exec_conc traced against ../shared/bench's C libssh2 client (bench_conc.py): bench-out/conc.json
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_conc, bench_latency, bench_openssh  # noqa: E402
from bench_server import Server  # noqa: E402

CONC_SCALING_COUNTS = [1, 10, 25, 50, 75]
CONC_SCALING_RUNS = 3


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
    return bench_openssh.main(options)


def conc_main(options):
    """exec_conc at MaxSessions 100 (rws, C libssh2, asyncssh when installed) and 10 (rws), then its scaling."""
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
                scaling = bench_conc.scaling(clients, server.bench_env({}), CONC_SCALING_COUNTS, CONC_SCALING_RUNS)
        finally:
            server.stop()
    bench_conc.print_table(results, options.conc_runs)
    bench_conc.print_scaling(scaling, CONC_SCALING_RUNS)
    os.makedirs("bench-out", exist_ok=True)
    with open("bench-out/conc.json", "w") as f:
        json.dump({"runs": results, "scaling": scaling}, f, indent=2)


def latency_main(options):
    """rws, the C reference and any --latency-also builds, in alternating rounds on one server."""
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
