"""A session file's title as scripts/derive-corpus-expectations.py derives it: read only from the
complete lines of the first and last 64 KiB, the first of custom title, AI title, last prompt,
summary of the newest leaf, first prompt and slash command that has text, folded to one line and
clipped to 200 characters.
"""
import json
import re

from corpus_records import TRANSCRIPT, content_blocks, message_of

WINDOW = 65536
TITLE_LENGTH = 200
COMMAND_NAME = re.compile(r"<command-name>(.*?)</command-name>")
GENERATED_PREFIXES = ("<local-command-stdout>", "<session-start-hook>", "<tick>", "<goal>", "[Request interrupted by user")
GENERATED_WRAPPERS = ("ide_opened_file", "ide_selection")


def fold(text):
    return text.replace("\r\n", " ").replace("\n", " ").strip()


def clip(text):
    return text[:TITLE_LENGTH].strip() + "\u2026" if len(text) > TITLE_LENGTH else text


def is_generated(text):
    """Text the CLI writes into a user record, not the user's prompt."""
    if text.startswith(GENERATED_PREFIXES):
        return True
    return any(text.strip().startswith(f"<{tag}>") and text.strip().endswith(f"</{tag}>") for tag in GENERATED_WRAPPERS)


def window_records(data):
    """Complete lines of the first and last 64 KiB (the whole file when it is smaller)."""
    def parse(chunk):
        records = []
        for line in chunk.split(b"\n"):
            try:
                records.append(json.loads(line))
            except ValueError:
                pass
        return records
    if len(data) <= WINDOW:
        records = parse(data)
        return records, records
    head = data[:WINDOW]
    head = head[: head.rfind(b"\n")]
    tail = data[-WINDOW:]
    tail = tail[tail.find(b"\n") + 1:]
    return parse(head), parse(tail)


def last_value(records, record_type, key):
    """The last string `key` of the records of `record_type`, or None."""
    values = [record.get(key) for record in records if record.get("type") == record_type and isinstance(record.get(key), str)]
    return values[-1] if values else None


def newest_leaf_summary(head, tail):
    """The summary record naming the newest transcript record that has one."""
    summaries = {record["leafUuid"]: record["summary"] for record in head + tail
                 if record.get("type") == "summary" and record.get("leafUuid")}
    for record in reversed(head + tail):
        if record.get("type") in TRANSCRIPT and record.get("uuid") in summaries:
            return summaries[record["uuid"]]
    return None


def first_prompt_and_command(head):
    """The first user prompt in the head (clipped), and the first slash command named before it."""
    command, first = None, None
    for record in head:
        if first or record.get("type") != "user" or record.get("isMeta") or record.get("isCompactSummary"):
            continue
        blocks = content_blocks(message_of(record).get("content"))
        if any(block.get("type") == "tool_result" for block in blocks):
            continue
        for block in blocks:
            if block.get("type") != "text" or not isinstance(block.get("text"), str):
                continue
            text = fold(block["text"])
            if not text:
                continue
            match = COMMAND_NAME.search(text)
            if match:
                command = command or match.group(1)
                continue
            if is_generated(text):
                continue
            first = clip(text)
            break
    return first, command


def title(data):
    """(title, the name of its source), or (None, None)."""
    head, tail = window_records(data)
    first, command = first_prompt_and_command(head)
    candidates = (
        (last_value(tail, "custom-title", "customTitle") or last_value(head, "custom-title", "customTitle"), "customTitle"),
        (last_value(tail, "ai-title", "aiTitle") or last_value(head, "ai-title", "aiTitle"), "aiTitle"),
        (last_value(tail, "last-prompt", "lastPrompt"), "lastPrompt"),
        (newest_leaf_summary(head, tail), "summary"),
        (first, "firstPrompt"),
        (command, "command"),
    )
    for value, source in candidates:
        if value and fold(value):
            return clip(fold(value)), source
    return None, None
