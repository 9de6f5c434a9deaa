# Sourced by scripts/bench: the `history` area. SessionHistory (`rws-bench history`) against
# Python's json (and orjson when installed) on a JSONL file made by concatenating the corpus files.
# shellcheck shell=bash disable=SC2154 # bin: scripts/bench's, the folder of the release build

# bench_history CORPUS-DIR TARGET-MB: builds the input (~TARGET-MB MB) and prints a table.
bench_history() {
    local corpus="$1" target_mb="$2"
    history_work="$(mktemp -d)"
    trap 'rm -rf "$history_work"' EXIT
    local input="$history_work/corpus-x.jsonl"
    while [ "$(stat -c %s "$input" 2>/dev/null || echo 0)" -lt $((target_mb * 1000000)) ]; do
        cat "$corpus"/*.jsonl >>"$input"
    done
    "$bin/rws-bench" history "$input" >"$history_work/swift.txt"
    python3 - "$input" >"$history_work/python.txt" <<'PY'
import json, sys, time
data = open(sys.argv[1], "rb").read()
lines = [l for l in data.split(b"\n") if l.strip()]
def run(loads):
    best = None
    for _ in range(3):
        t = time.perf_counter()
        for l in lines:
            loads(l)
        d = time.perf_counter() - t
        best = d if best is None else min(best, d)
    return best
print("json_s %.3f" % run(json.loads))
try:
    import orjson
    print("orjson_s %.3f" % run(orjson.loads))
except ImportError:
    pass
PY
    local mb parse json orjson
    mb="$(history_value file_mb)"
    parse="$(history_value parse_s)"
    json="$(history_value json_s)"
    orjson="$(history_value orjson_s)"
    echo "SessionHistory benchmark — $mb MB, $(history_value records) records, $(history_value bad_lines) bad lines" \
        "($(nproc) cores, $(swift --version 2>/dev/null | head -1 | sed 's/ (.*//'))"
    printf '%-44s %10s %10s\n' "measure" "time" "MB/s"
    printf '%-44s %9ss %10s\n' "SessionHistory: full parse to typed records" "$parse" "$(history_rate "$mb" "$parse")"
    printf '%-44s %9ss %10s\n' "Python json.loads per line" "$json" "$(history_rate "$mb" "$json")"
    [ -z "$orjson" ] || printf '%-44s %9ss %10s\n' "Python orjson.loads per line" "$orjson" "$(history_rate "$mb" "$orjson")"
    printf '%-44s %10s\n' "parse speed vs json" "$(history_ratio "$json" "$parse")x"
    [ -z "$orjson" ] || printf '%-44s %10s\n' "parse speed vs orjson" "$(history_ratio "$orjson" "$parse")x"
    printf '%-44s %9ss\n' "conversation build (chain, merge, pairing)" "$(history_value conversation_s)"
    printf '%-44s %8sms\n' "summary from 64 KiB head + 64 KiB tail" "$(history_value summary_ms)"
    local markdown_s
    markdown_s="$(history_value markdown_s)"
    printf '%-44s %9ss %10s\n' "Markdown export ($(history_value markdown_mb) MB out)" "$markdown_s" "$(history_rate "$mb" "$markdown_s")"
}

# The value of one `name value` line of either side's output.
history_value() { awk -v k="$1" '$1 == k { print $2 }' "$history_work/swift.txt" "$history_work/python.txt"; }
history_ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
history_rate() { awk -v mb="$1" -v s="$2" 'BEGIN { printf "%.0f", mb / s }'; }
