"""The counts scripts/derive-corpus-expectations.py derives from a session file's records: messages
and tool uses as displayed (SCHEMA-NOTES §4), and token usage per response (§8).
"""
from corpus_chain import chain
from corpus_records import content_blocks, message_of

USAGE_KEYS = ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")


def is_hidden(entry, sidechain_file):
    """Meta records, team members' records and, outside a subagent's file, sidechain records are not displayed."""
    return entry.get("isMeta") or entry.get("teamName") or (entry.get("isSidechain") and not sidechain_file)


def displayed(entries, sidechain_file):
    """(messages, tool uses, tool uses answered by a result, leaves not shown) of the displayed chain.
    A user record that is only results of earlier tool uses is no message; an assistant response in
    several records (one message id) is one message."""
    shown, other_leaves = chain(entries)
    messages, seen_ids, tool_uses = 0, set(), []
    answered = set()
    for index in shown:
        entry = entries[index]
        if entry["type"] not in ("user", "assistant"):
            continue
        if is_hidden(entry, sidechain_file):
            continue
        blocks = content_blocks(message_of(entry).get("content"))
        if entry["type"] == "user":
            for block in blocks:
                use_id = block.get("tool_use_id")
                if block.get("type") == "tool_result" and use_id in tool_uses and use_id not in answered:
                    answered.add(use_id)
            rest = [block for block in blocks if not (block.get("type") == "tool_result" and block.get("tool_use_id") in tool_uses)]
            if rest:
                messages += 1
        else:
            message_id = entry["message"].get("id")
            if message_id is None or message_id not in seen_ids:
                messages += 1
                seen_ids.add(message_id)
            tool_uses += [block["id"] for block in blocks if block.get("type") == "tool_use"]
    return messages, len(tool_uses), len(answered), other_leaves


def usage(entries):
    """([input, output, cache creation, cache read] tokens, responses). A response's records (one message
    id, else request id, else uuid) count once, with the largest figure of each; API errors and
    synthetic messages count not at all."""
    per_response = {}
    for entry in entries:
        if entry.get("type") != "assistant":
            continue
        message = message_of(entry)
        if entry.get("isApiErrorMessage") or message.get("model") == "<synthetic>" or not isinstance(message.get("usage"), dict):
            continue
        figures = [message["usage"].get(key) or 0 for key in USAGE_KEYS]
        response = message.get("id") or entry.get("requestId") or entry.get("uuid")
        if response in per_response:
            figures = [max(before, now) for before, now in zip(per_response[response], figures)]
        per_response[response] = figures
    return [sum(figures[key] for figures in per_response.values()) for key in range(len(USAGE_KEYS))], len(per_response)
