# Sourced by the scripts that build for a CI run (scripts/test, check-snippets, check-docs, demo, api-surface):
# `suite_build`, the flags of the one build they share. A second configuration beside it (the
# debug build these scripts once made) compiled everything again: ~6 of a CI run's ~28 minutes.
# Optimized: the test lanes are bound by the CPU, and a debug build spent ~40 % more of it on the
# same tests (7.2 against 5.4 CPU-minutes, process accounting; in a debug build argument-parser
# checks the command tree on every parse, ~9 % of the run's CPU). Testable, and with assertions
# kept (`-assert-config Debug`): an illegal transition still stops a test. In .build/tests, apart
# from the benchmarks' `-c release` (other flags: sharing a folder would rebuild the one for the
# other).
# shellcheck shell=bash
suite_build=(-c release -Xswiftc -enable-testing -Xswiftc -assert-config -Xswiftc Debug --scratch-path .build/tests)

# Dumps the public symbol graphs of that build and prints their folder (check-docs, api-surface).
suite_symbol_graphs() {
    swift package "${suite_build[@]}" dump-symbol-graph --minimum-access-level public >/dev/null
    echo "$(dirname "$(swift build "${suite_build[@]}" --show-bin-path)")/symbolgraph"  # beside the configurations
}
