# Sourced by scripts/test: a CPU control group of low weight for the main lane, so the solo tests
# can run beside it and still get the CPU whenever they want it.
#
# `nice` is not enough: with the kernel's autogroups (sched_autogroup_enabled, on in most
# distributions) every session gets its own group of equal weight, and the test servers start
# one per connection, so a niced lane's remote commands were as heavy as the solo tests' (tried:
# a solo test then held a signal for 1.13 s where it must answer within a second). A process in a
# control group of its own is outside the autogroups; the group's weight (128, against 1024 for
# each autogroup) holds for every process started in it, sshd's sessions included.
#
# Used unless RWS_TEST_SOLO_BESIDE=0. Needs a writable cgroup v1 `cpu` hierarchy (root); elsewhere
# `lane_group_make` fails and scripts/test runs the solo tests after the lanes, alone.
# shellcheck shell=bash

lane_group=
lane_group_root=/sys/fs/cgroup/cpu

# Makes the group, removed with what is left in it when the script exits; fails without one.
lane_group_make() {
    [ -w "$lane_group_root/cgroup.procs" ] || return 1
    lane_group="$lane_group_root/rws-test-lanes-$$"
    if ! mkdir "$lane_group" 2>/dev/null || ! echo 128 > "$lane_group/cpu.shares" 2>/dev/null; then
        rmdir "$lane_group" 2>/dev/null
        lane_group=
        return 1
    fi
    exit_steps="lane_group_remove; $exit_steps"
}

# Runs "$@" in the group (or as it is, without one); its children stay in it.
in_lane_group() {
    if [ -n "$lane_group" ]; then
        sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$lane_group" "$@"
    else
        "$@"
    fi
}

# Moves anything still in the group back to the root and removes the group.
lane_group_remove() {
    [ -n "$lane_group" ] && [ -d "$lane_group" ] || return 0
    local pid
    while read -r pid; do echo "$pid" > "$lane_group_root/cgroup.procs" 2>/dev/null; done < "$lane_group/cgroup.procs"
    rmdir "$lane_group" 2>/dev/null || echo "warning: could not remove $lane_group" >&2
}
