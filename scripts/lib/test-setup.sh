# Sourced by scripts/test (from the checkout's top): installs what
# the tests need, checks the corpus, defines `failures LOG`, `test_list` and `check_test_lists`,
# and builds with no warning allowed (with `build_flags`, an array the script sets first).
# shellcheck shell=bash
source scripts/lib/prerequisites.sh
install_prerequisites
install_claude_cli

corpus="../shared/claude-corpus/jsonl"
if [ ! -d "$corpus" ]; then
    echo "error: $corpus is missing: the SessionHistory tests read the real session corpus from there" >&2
    exit 1
fi

# Tests make throwaway homes, keys, servers and repositories in the temporary directory and
# leave many behind (a killed test cannot clean up): each run gets one of its own, removed at its
# end with what it holds. The scripts' own logs live there too.
TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/rws-tests.XXXXXX")
export TMPDIR
# What the run undoes when it exits (scripts/lib/lane-group.sh adds its group); a signal ends
# it through `exit`, since bash runs no EXIT trap when a signal ends it.
# shellcheck disable=SC2016,SC2089 # a command line kept as text, run by eval at exit
exit_steps='rm -rf "$TMPDIR"'
# shellcheck disable=SC2090
trap 'eval "$exit_steps"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# What failed in a log, repeated at the end: a run prints thousands of lines and a CI log may
# keep only its end.
failures() {
    awk '/✘|error:|[Ff]atal error|[Ss]ignal [0-9]+/ { print; more = 1; next }
         more && /^ *↳/ { print; next }
         { more = 0 }' "$1" | head -200
}

# The tests a log shows started and never ended: what ran when a test process died of a signal
# (exit status $2 above 128), which leaves no failure line of its own.
unfinished() {
    [ "$2" -gt 128 ] || return 0
    echo "== the test process died of signal $(($2 - 128)); these tests had started and not ended:"
    awk '/^◇ Test (case |run started)/ { next }
         /^◇ Test .* started\.$/ { name = $0; sub(/^◇ Test /, "", name); sub(/ started\.$/, "", name); running[name] = 1; next }
         /^(✔|✘) Test / { line = $0; sub(/^(✔|✘) Test /, "", line)
                          for (name in running) if (index(line, name " ") == 1) delete running[name] }
         END { for (name in running) print "  " name }' "$1"
}

# Swift 6 with strict concurrency, and no warnings: a build that prints one fails the run (what
# a build compiles is what it warns about, so a fresh clone, as in CI, checks every file).
# scripts/test sets build_flags (the whole run builds optimized); none is a debug build.
build_log=$(mktemp)
# `--build-tests` builds every target and product too; a plain build beside it made each of the
# two plan its build again (~5 s of a warm run).
# shellcheck disable=SC2154 # build_flags is set by scripts/test, which sources this file
swift build "${build_flags[@]}" --build-tests 2>&1 | tee "$build_log"
if grep -q "warning:" "$build_log"; then
    echo "== the build printed warnings (none are allowed), repeated from above:" >&2
    grep -A12 "warning:" "$build_log" | head -100 >&2
    rm -f "$build_log"
    exit 1
fi
rm -f "$build_log"

# File $2 as test binary arguments: option $1 (--filter or --skip) before each of its
# non-comment lines (scripts/lib/waiting-suites and the like).
test_list() {
    local option=$1 line
    while read -r line; do
        [[ -z "$line" || "$line" == \#* ]] || printf '%s\n%s\n' "$option" "$line"
    done < "$2"
}

# Fails the run when a line of the files after $1 (the test binary) names no test: it would
# silently run nothing, or skip nothing.
check_test_lists() {
    local tests=$1 listed file line
    shift
    listed=$("$tests" --testing-library swift-testing --list-tests 2>/dev/null)
    for file in "$@"; do
        while read -r line; do
            [[ -z "$line" || "$line" == \#* ]] && continue
            if ! grep -qE -- "$line" <<< "$listed"; then
                echo "error: '$line' in $file names no test: correct it or remove it" >&2
                exit 1
            fi
        done < "$file"
    done
}

# Every run of the rws executable that dies of a crash signal is noted in RWS_TEST_CRASH_LOG
# (RWSBinary): any crash fails the run, whatever the test around it asserted.
crashes() {
    [ -s "$RWS_TEST_CRASH_LOG" ] || return 0
    echo "== rws crashed (a crash fails the run, whatever the test asserted):"
    cat "$RWS_TEST_CRASH_LOG"
    return 1
}
