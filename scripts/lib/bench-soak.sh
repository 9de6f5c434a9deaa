# Sourced by scripts/bench: the soaks, each failing (exit 1) when its check fails; the JSON summary
# goes to stdout and to $SOAK_OUT (default bench-out), samples and faults to stderr.
#   soak        one rws connection under mixed load for 10 minutes (a PTY shell typed into all along,
#               20,000 execs from four lanes, 2,000 SFTP reads of a 256 KiB file) against a throwaway
#               sshd; fails on a failed operation, on growth beyond +2 fds, +4 threads, +16 MiB RSS over
#               the sample after the warm-up, or descriptors left open after close. --quick: 1 minute.
#   soak-days   the same for 2 hours with a follow of a growing file, the link cut (all traffic stopped
#               through a FaultProxy) for 8 s every 10 minutes; also fails on a follow line missing or
#               repeated, on p50 or p99 of the last 10 minutes more than 10 % above the first (cuts left
#               out), on a process of the soak left on the box. scripts/lib/soak_figures.py turns its
#               stderr log and JSON into the table of docs/benchmarks.md.
#   fault-soak  the rws command itself, as a user runs it, through a FaultProxy that resets every
#               connection every 30 s and black-holes all traffic for 20 s every 2 minutes, for 10
#               minutes (`rws history --follow`, `rws shell --persist` in tmux, `rws exec --timeout 4s`
#               once a second), its own sshd (or --server dropbear); fails on a follow line lost,
#               repeated or out of order, a command ending otherwise than completed, stopped or reported
#               lost, another shell at the end, leftovers on the box, fd or thread growth.
# Any rws-bench soak / fault-soak option goes through (`rws-bench --help`).
# shellcheck shell=bash disable=SC2154 # bin: scripts/bench's, the folder of the release build

# bench_soak AREA [options]: runs the soak and exits with its status.
bench_soak() {
    local area="$1"
    shift
    local out="${SOAK_OUT:-bench-out}"
    mkdir -p "$out"
    local summary="$out/$area.json" status=0
    case "$area" in
        fault-soak) "$bin/rws-bench" fault-soak "$@" >"$summary" || status=$? ;;
        soak) soak_against_sandbox "$@" >"$summary" || status=$? ;;
        soak-days)
            soak_against_sandbox --duration 7200 --execs 72000 --reads 7200 --cut-every 600 --cut-length 8 \
                --latency-tolerance 0.1 --sample 30 "$@" >"$summary" || status=$?
            ;;
    esac
    cat "$summary"
    exit "$status"
}

# `rws-bench soak` with its options against a throwaway sshd (rws-sandbox), stopped at the end.
soak_against_sandbox() {
    soak_sshd="$(mktemp -d /tmp/rws-soak-sshd-XXXXXX)"
    trap '"$bin/rws-sandbox" stop "$soak_sshd"; rm -rf "$soak_sshd"' EXIT
    eval "$("$bin/rws-sandbox" start "$soak_sshd")"
    BENCH_HOST=127.0.0.1 BENCH_PORT="$SANDBOX_PORT" BENCH_USER="$SANDBOX_USER" BENCH_KEY="$SANDBOX_KEY" \
        BENCH_KEY_PUB="$SANDBOX_KEY.pub" BENCH_KNOWN_HOSTS="$SANDBOX_KNOWN_HOSTS" "$bin/rws-bench" soak "$@"
}
