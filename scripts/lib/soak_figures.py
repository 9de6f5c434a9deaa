#!/usr/bin/env python3
"""Turns a soak's stderr log (and its JSON summary, when given) into Markdown for docs/benchmarks.md.

    python3 scripts/lib/soak_figures.py SOAK.err [SOAK.json] [--every 600]

Prints one row per `--every` seconds of "soak-window" latency lines (p50/p99 in ms of exec,
shell echo and SFTP stat; windows holding a link cut show the undisturbed samples only), the
client's fds/threads/RSS at the same times, and the summary's verdict, start-versus-end ratios,
follow lines and problems. Works on a log that is still growing or was cut short.
"""
import json
import re
import sys

WINDOW = re.compile(r"^soak-window t=(\d+)-(\d+)s (.*)$")
KIND = re.compile(r"(\w+) n=(\d+) p50=([\d.na]+) p99=([\d.na]+)")
SAMPLE = re.compile(r"^soak: t=\s*([\d.]+)s fds=(\d+) threads=(\d+) rss=([\d.]+)MiB (.*)$")


def main(argv):
    every = 600.0
    if "--every" in argv:
        index = argv.index("--every")
        every = float(argv[index + 1])
        del argv[index:index + 2]
    log, summary = argv[0], (argv[1] if len(argv) > 1 else None)
    windows, samples, cuts = [], [], 0
    for line in open(log, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if m := WINDOW.match(line):
            kinds = {k: (int(n), p50, p99) for k, n, p50, p99 in KIND.findall(m.group(3))}
            windows.append((float(m.group(1)), float(m.group(2)), kinds))
        elif m := SAMPLE.match(line):
            samples.append((float(m.group(1)), int(m.group(2)), int(m.group(3)), float(m.group(4)), m.group(5)))
        elif "link cut at" in line:
            cuts += 1
    print("| minute | exec p50/p99 ms | shell echo p50/p99 ms | SFTP stat p50/p99 ms | fds | threads | RSS MiB |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    next_row = 0.0
    for index, (start, end, kinds) in enumerate(windows):
        if start < next_row and index != len(windows) - 1:
            continue
        next_row = start + every
        sample = min(samples, key=lambda s: abs(s[0] - end)) if samples else None
        cells = [f"{kinds[k][1]} / {kinds[k][2]}" if k in kinds else "-" for k in ("exec", "shell_echo", "sftp_stat")]
        resources = [str(sample[1]), str(sample[2]), f"{sample[3]:.1f}"] if sample else ["-"] * 3
        print(f"| {start / 60:.0f}–{end / 60:.0f} | " + " | ".join(cells + resources) + " |")
    if samples:
        print(f"\nlast sample: t={samples[-1][0]:.0f}s {samples[-1][4]}; link cuts so far: {cuts}")
    if summary:
        try:
            data = json.load(open(summary, encoding="utf-8"))
        except (OSError, ValueError) as error:
            print(f"\nno summary yet ({error})")
            return
        print(f"\nverdict: {data.get('verdict')}; follow lines: {data.get('followLines')}; "
              f"execs {data.get('execs')}, reads {data.get('reads')}, keys {data.get('keysEchoed')}, failures {data.get('failures')}")
        for kind, entry in sorted(data.get("latencyStartVersusEnd", {}).items()):
            if isinstance(entry, dict) and "start" in entry:
                s, e = entry["start"], entry["end"]
                print(f"- {kind}: start p50 {s['p50']:.3f} / p99 {s['p99']:.3f} ms, end p50 {e['p50']:.3f} / p99 {e['p99']:.3f} ms "
                      f"(x{entry['p50Ratio']:.2f} / x{entry['p99Ratio']:.2f})")
        print(f"- baseline {data.get('baseline')}, peak {data.get('peak')}, after close {data.get('afterClose')}")
        for problem in data.get("problems", []):
            print(f"- problem: {problem}")


if __name__ == "__main__":
    main(sys.argv[1:])
