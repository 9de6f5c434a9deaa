"""The records of a Claude Code session file as scripts/derive-corpus-expectations.py reads them:
every non-blank line through json.loads, the transcript types, a message's content as blocks.
"""
import json

# The record types that take part in the parent chain (SCHEMA-NOTES §9).
TRANSCRIPT = {"user", "assistant", "system", "progress", "attachment"}


def load(path):
    """The file's bytes and its records, one a non-blank line."""
    with open(path, "rb") as handle:
        data = handle.read()
    lines = [line for line in data.split(b"\n") if line.strip()]
    return data, [json.loads(line) for line in lines]


def content_blocks(content):
    """A message's content as blocks: a string is one text block, a list keeps its objects, anything else is none."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [block for block in content if isinstance(block, dict)] if isinstance(content, list) else []


def message_of(entry):
    """The record's message object ({} when it has none)."""
    return entry.get("message") or {}
