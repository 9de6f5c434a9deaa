# Sourced by scripts/test: the Claude Code tests once more, against the pinned release (its own
# folder of the cache): a new release must not break them, and the pinned one must not either.
# Alone, one at a time where the lanes ran them alone (scripts/lib/solo-suites), the rest three at
# a time. Then what the newest release writes that the pinned one does not.
# shellcheck shell=bash disable=SC2154 # the variables named below are scripts/test's and test-setup.sh's

# Sets claude_status (0 when the pinned release is the newest: the lanes ran the only one).
# Uses run_tests, claude_only, solo_skip and logs from scripts/test.
claude_pinned_pass() {
    claude_status=0
    if [ "$claude_sdk_pinned" != "$claude_sdk_newest" ]; then
        echo "== the Claude Code tests (scripts/lib/claude-suites) again, with the pinned CLI (claude-agent-sdk $claude_sdk_pinned)"
        RWS_CLAUDE_AGENT_SDK_VERSION=$claude_sdk_pinned RWS_CLAUDE_RECORD_REPORT="$logs/records-pinned" \
            run_tests --experimental-maximum-parallelization-width 3 "${claude_only[@]}" "${solo_skip[@]}" 2>&1 | tee "$logs/claude"
        claude_status=${PIPESTATUS[0]}
        # The solo lines that name tests of the Claude Code suites (filters add up, so the intersection
        # is taken here).
        claude_suite_names=$(sed -n 's/^\\\.\([A-Za-z0-9_]*\)\/$/\1/p' scripts/lib/claude-suites | paste -sd '|' -)
        mapfile -t claude_solo < <(grep -E "^($claude_suite_names)/" scripts/lib/solo-suites | while read -r line; do
            printf '%s\n%s\n' --filter "$line"
        done)
        if [ ${#claude_solo[@]} -gt 0 ]; then
            RWS_CLAUDE_AGENT_SDK_VERSION=$claude_sdk_pinned RWS_CLAUDE_RECORD_REPORT="$logs/records-pinned" \
                run_tests --no-parallel "${claude_solo[@]}" 2>&1 | tee -a "$logs/claude"
            claude_solo_status=${PIPESTATUS[0]}
            [ "$claude_status" -ne 0 ] || claude_status=$claude_solo_status
        fi
        # What the newest writes that the pinned does not: record types (a line "TYPE") and their
        # top-level keys ("TYPE KEY"), as the oracle tests saw them.
        newest_cli=$(_claude_cli_version "$claude_sdk_newest")
        pinned_cli=$(_claude_cli_version "$claude_sdk_pinned")
        echo "== what Claude Code ${newest_cli%% *} (claude-agent-sdk $claude_sdk_newest) writes that ${pinned_cli%% *}" \
            "(claude-agent-sdk $claude_sdk_pinned) does not: record types, and top-level keys by type"
        new_records=$(comm -13 <(sort -u "$logs/records-pinned" 2>/dev/null) <(sort -u "$logs/records-newest" 2>/dev/null) | tr '\t' ' ')
        printf '%s\n' "${new_records:-none}"
    else
        echo "== the Claude Code tests ran against one CLI: the newest release is the pinned one (claude-agent-sdk $claude_sdk_pinned)"
    fi
}
