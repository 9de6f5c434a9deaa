# Sourced by scripts/bench: the `render` area. Builds a ~300 MB session from the corpus's largest file
# (repeated with fresh uuids, chained, so the whole file is one conversation), then times `rws history
# FILE` (text, markdown, json) with its peak resident memory (/usr/bin/time -v) in two rounds, each
# beside what a user would otherwise run on the same file (`cat`, Python's json.loads of every line,
# `jq -c .` when installed); then the same over SSH from a throwaway sshd, and `rws-bench history` on
# the file (parse, build, Markdown export). Needs ~1 GB free in the temporary folder.
# shellcheck shell=bash disable=SC2154 # bin: scripts/bench's, the folder of the release build

bench_render() {
    local corpus="$1"
    [ -x /usr/bin/time ] || _apt_install time
    render_work="$(mktemp -d)"
    render_sshd="$render_work/sshd"
    trap '"$bin/rws-sandbox" stop "$render_sshd" >/dev/null 2>&1 || true; rm -rf "$render_work"' EXIT
    local big="$render_work/big.jsonl"
    python3 - "$corpus" "$big" <<'PY'
import glob, json, os, sys
corpus, target = sys.argv[1], sys.argv[2]
base = max(glob.glob(corpus + "/*.jsonl"), key=os.path.getsize)
lines = [l for l in open(base, encoding="utf-8") if l.strip()]
size, rep, last = 0, 0, None
with open(target, "w", encoding="utf-8") as out:
    while size < 300_000_000:
        for line in lines:
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if "uuid" in r: r["uuid"] = f"{r['uuid']}-{rep}"
            if r.get("parentUuid"): r["parentUuid"] = f"{r['parentUuid']}-{rep}"
            elif "parentUuid" in r and last: r["parentUuid"] = last
            message = r.get("message")
            if isinstance(message, dict) and message.get("id"): message["id"] = f"{message['id']}-{rep}"
            if "uuid" in r: last = r["uuid"]
            text = json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n"
            out.write(text)
            size += len(text.encode())
        rep += 1
print(f"{size / 1e6:.0f} MB session ({rep} copies of {os.path.basename(base)})")
PY
    render_size=$(wc -c <"$big")
    mkdir -p "$render_work/client"
    local python_reader='import json, sys
for line in open(sys.argv[1], "rb"):
    if line.strip(): json.loads(line)'
    local round format
    for round in 1 2; do
        echo "round $round"
        for format in text markdown json; do
            render_timed "rws history FILE --format $format" "$bin/rws" history "$big" --format "$format"
        done
        render_timed "reference: cat FILE" cat "$big"
        render_timed "reference: Python json.loads of every line" python3 -c "$python_reader" "$big"
        if command -v jq >/dev/null 2>&1; then render_timed "reference: jq -c . FILE" jq -c . "$big"; fi
    done

    # The same file in a session folder on a throwaway sshd, read over SSH (loopback).
    eval "$("$bin/rws-sandbox" start "$render_sshd")"
    mkdir -p "$SANDBOX_HOME/.claude/projects/-home-bench-big"
    cp "$big" "$SANDBOX_HOME/.claude/projects/-home-bench-big/5e551011-0000-4000-8000-000000000302.jsonl"
    local remote=(--host "$SANDBOX_USER@127.0.0.1:$SANDBOX_PORT" --identity "$SANDBOX_KEY" --known-hosts "$SANDBOX_KNOWN_HOSTS"
        -F "$render_sshd/empty_ssh_config")
    for format in text markdown; do
        render_timed "rws history ID --host (over SSH) --format $format" "$bin/rws" history 5e551011 "${remote[@]}" --format "$format"
    done
    "$bin/rws-bench" history "$big"
}

# render_timed LABEL COMMAND…: wall time, peak resident memory (and its ratio to the file), output size.
render_timed() {
    local label="$1"
    shift
    HOME="$render_work/client" /usr/bin/time -v "$@" >"$render_work/out" 2>"$render_work/time"
    local wall rss ratio
    wall=$(grep 'Elapsed' "$render_work/time" | awk '{print $NF}')
    rss=$(grep 'Maximum resident' "$render_work/time" | awk '{print $NF}')
    ratio=$(awk -v rss="$rss" -v size="$render_size" 'BEGIN { printf "%.2f", rss * 1024 / size }')
    echo "$label: $wall wall, $((rss / 1024)) MB peak resident (${ratio}x the file), $(($(wc -c <"$render_work/out") / 1000000)) MB out"
}
