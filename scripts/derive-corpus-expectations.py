#!/usr/bin/env python3
"""Derives, independently of the Swift code, the values SessionHistoryTests checks for every
file of ../shared/claude-corpus/jsonl (json.loads per line, the rules of SCHEMA-NOTES §4, §8, §9).

Prints one Swift `CorpusExpectation(...)` literal per file. Run once; paste the output into
Tests/SessionHistoryTests/CorpusExpectations.swift.
Usage: scripts/derive-corpus-expectations.py [corpus-dir]
"""
import json, os, re, sys
from collections import Counter

CORPUS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "claude-corpus", "jsonl")
WINDOW = 65536
TRANSCRIPT = {"user", "assistant", "system", "progress", "attachment"}


def load(path):
    data = open(path, "rb").read()
    lines = [l for l in data.split(b"\n") if l.strip()]
    return data, [json.loads(l) for l in lines]


def content_blocks(content):
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def parents(entries):
    """Parent index of every transcript entry. A missing, self-naming or unknown parentUuid
    continues from the previous entry of the same side (plain file order); a record repeating an
    earlier record's uuid and parent is a copy and continues from the previous entry too; a
    forward link (to the last record with that uuid) is kept only when it makes no cycle; compaction boundaries follow
    logicalParentUuid."""
    trans = [i for i, e in enumerate(entries) if e.get("type") in TRANSCRIPT]
    last = {}
    for i in trans:
        u = entries[i].get("uuid")
        if isinstance(u, str):
            last[u] = i
    parent, latest, previous, forward = {}, {}, {}, []
    for i in trans:
        e = entries[i]
        side = bool(e.get("isSidechain"))
        p, u = e.get("parentUuid"), e.get("uuid")
        if isinstance(p, str) and p != u:
            link = latest.get(p)
            if link is None:
                link = last.get(p) if last.get(p, -1) > i else None
                if link is not None:
                    forward.append((i, previous.get(side)))
            if link is not None and isinstance(u, str) and u in latest and parent.get(latest[u]) == link:
                parent[i] = previous.get(side)
            else:
                parent[i] = link if link is not None else previous.get(side)
        elif p is None and isinstance(e.get("logicalParentUuid"), str):
            parent[i] = latest.get(e["logicalParentUuid"], previous.get(side))
        else:
            parent[i] = previous.get(side)
        if isinstance(u, str):
            latest[u] = i
        previous[side] = i

    def cycles(i, start):
        seen, cur = set(), start
        while cur is not None:
            if cur == i or cur in seen:
                return True
            seen.add(cur)
            cur = parent.get(cur)
        return False
    for i, fallback in forward:
        if cycles(i, parent[i]):
            parent[i] = None if cycles(i, fallback) else fallback
    return trans, parent


def chain(entries):
    """SCHEMA-NOTES §9 over the parents above, following logicalParentUuid across compaction boundaries."""
    trans, parent = parents(entries)
    has_child = {p for p in parent.values() if p is not None}
    leaves = set()
    for i in trans:
        if i in has_child:
            continue
        seen, cur = set(), i
        while cur is not None and cur not in seen:
            seen.add(cur)
            if entries[cur]["type"] in ("user", "assistant"):
                leaves.add(cur)
                break
            cur = parent.get(cur)
    preferred = [i for i in leaves if not entries[i].get("isSidechain") and not entries[i].get("teamName") and not entries[i].get("isMeta")]
    pool = preferred or list(leaves)
    if not pool:
        return [], 0
    out, seen, cur = [], set(), max(pool)
    while cur is not None and cur not in seen:
        seen.add(cur)
        out.append(cur)
        cur = parent.get(cur)
    # Parallel tool calls: every chunk of a response on the chain, and the tool results
    # parented to those chunks, are shown too (in file order).
    shown = set(out)
    ids = {entries[i]["message"].get("id") for i in out if entries[i]["type"] == "assistant"} - {None}
    chunks = set()
    for i, e in enumerate(entries):
        if e.get("type") == "assistant" and (e.get("message") or {}).get("id") in ids:
            shown.add(i)
            chunks.add(e.get("uuid"))
    for i, e in enumerate(entries):
        if e.get("type") == "user" and e.get("parentUuid") in chunks and any(
                b.get("type") == "tool_result" for b in content_blocks((e.get("message") or {}).get("content"))):
            shown.add(i)
    return sorted(shown), len(set(pool) - shown)


def displayed(entries, sidechain_file):
    idx, leaves = chain(entries)
    messages, seen_ids, tool_uses, paired = 0, set(), [], 0
    answered = set()
    for i in idx:
        e = entries[i]
        if e["type"] not in ("user", "assistant"):
            continue
        if e.get("isMeta") or e.get("teamName") or (e.get("isSidechain") and not sidechain_file):
            continue
        blocks = content_blocks((e.get("message") or {}).get("content"))
        if e["type"] == "user":
            for b in blocks:
                if b.get("type") == "tool_result" and b.get("tool_use_id") in tool_uses and b["tool_use_id"] not in answered:
                    answered.add(b["tool_use_id"])
            rest = [b for b in blocks if not (b.get("type") == "tool_result" and b.get("tool_use_id") in tool_uses)]
            if rest:
                messages += 1
        else:
            mid = e["message"].get("id")
            if mid is None or mid not in seen_ids:
                messages += 1
                seen_ids.add(mid)
            tool_uses += [b["id"] for b in blocks if b.get("type") == "tool_use"]
    return messages, len(tool_uses), len(answered), leaves


def usage(entries):
    per = {}
    for e in entries:
        if e.get("type") != "assistant":
            continue
        m = e.get("message") or {}
        if e.get("isApiErrorMessage") or m.get("model") == "<synthetic>" or not isinstance(m.get("usage"), dict):
            continue
        u = m["usage"]
        vals = [u.get(k) or 0 for k in ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")]
        key = m.get("id") or e.get("requestId") or e.get("uuid")
        per[key] = [max(a, b) for a, b in zip(per[key], vals)] if key in per else vals
    return [sum(v[k] for v in per.values()) for k in range(4)], len(per)


CMD = re.compile(r"<command-name>(.*?)</command-name>")


def fold(text):
    return text.replace("\r\n", " ").replace("\n", " ").strip()


def clip(t):
    return t[:200].strip() + "\u2026" if len(t) > 200 else t


def generated(t):
    if t.startswith(("<local-command-stdout>", "<session-start-hook>", "<tick>", "<goal>", "[Request interrupted by user")):
        return True
    return any(t.strip().startswith(f"<{tag}>") and t.strip().endswith(f"</{tag}>") for tag in ("ide_opened_file", "ide_selection"))


def window_records(data):
    """Complete lines of the first and last 64 KiB (the whole file when it is smaller)."""
    def parse(chunk):
        out = []
        for l in chunk.split(b"\n"):
            try:
                out.append(json.loads(l))
            except ValueError:
                pass
        return out
    if len(data) <= WINDOW:
        recs = parse(data)
        return recs, recs
    head = data[:WINDOW]
    head = head[: head.rfind(b"\n")]
    tail = data[-WINDOW:]
    tail = tail[tail.find(b"\n") + 1:]
    return parse(head), parse(tail)


def title(data):
    head, tail = window_records(data)
    def last(recs, typ, key):
        vals = [r.get(key) for r in recs if r.get("type") == typ and isinstance(r.get(key), str)]
        return vals[-1] if vals else None
    summaries = {r["leafUuid"]: r["summary"] for r in head + tail if r.get("type") == "summary" and r.get("leafUuid")}
    by_leaf = None
    for r in reversed(head + tail):
        if r.get("type") in TRANSCRIPT and r.get("uuid") in summaries:
            by_leaf = summaries[r["uuid"]]
            break
    command, first = None, None
    for r in head:
        if first or r.get("type") != "user" or r.get("isMeta") or r.get("isCompactSummary"):
            continue
        blocks = content_blocks((r.get("message") or {}).get("content"))
        if any(b.get("type") == "tool_result" for b in blocks):
            continue
        for b in blocks:
            if b.get("type") != "text" or not isinstance(b.get("text"), str):
                continue
            t = fold(b["text"])
            if not t:
                continue
            m = CMD.search(t)
            if m:
                command = command or m.group(1)
                continue
            if generated(t):
                continue
            first = clip(t)
            break
    for value, source in ((last(tail, "custom-title", "customTitle") or last(head, "custom-title", "customTitle"), "customTitle"),
                          (last(tail, "ai-title", "aiTitle") or last(head, "ai-title", "aiTitle"), "aiTitle"),
                          (last(tail, "last-prompt", "lastPrompt"), "lastPrompt"), (by_leaf, "summary"),
                          (first, "firstPrompt"), (command, "command")):
        if value and fold(value):
            return clip(fold(value)), source
    return None, None


def swift(s):
    return "nil" if s is None else json.dumps(s, ensure_ascii=False).replace("\\\\", "\\\\").replace("\\u2026", "\u2026")


for name in sorted(os.listdir(CORPUS)):
    if not name.endswith(".jsonl"):
        continue
    data, entries = load(os.path.join(CORPUS, name))
    types = Counter(e.get("type") for e in entries)
    messages, uses, paired, leaves = displayed(entries, "agent-" in name)
    (inp, out, cw, cr), responses = usage(entries)
    t, source = title(data)
    type_list = ", ".join(f'"{k}": {v}' for k, v in sorted(types.items()))
    print(f'    CorpusExpectation(file: "{name}", records: {len(entries)}, types: [{type_list or ":"}], '
          f'messages: {messages}, toolUses: {uses}, pairedToolUses: {paired}, otherLeaves: {leaves}, '
          f'usage: TokenUsage(inputTokens: {inp}, outputTokens: {out}, cacheCreationInputTokens: {cw}, cacheReadInputTokens: {cr}), '
          f'responses: {responses}, title: {swift(t)}, titleSource: {"." + source if source else "nil"}),')
