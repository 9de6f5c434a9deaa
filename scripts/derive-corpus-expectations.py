#!/usr/bin/env python3
"""A labelled cross-check of the Swift rules for Claude Code session files; not an oracle. Run by hand.

Usage: scripts/derive-corpus-expectations.py [CORPUS-DIR]     (default ../shared/claude-corpus/jsonl)

A second reading of every file of the corpus, written in Python apart from the Swift code
(json.loads per line; the chain, usage and title rules of SCHEMA-NOTES §4, §8, §9 written again
in scripts/lib/corpus_*.py). It prints one Swift `CorpusExpectation(...)` literal per file; those
literals are Tests/SessionHistoryTests/CorpusExpectations.swift. Where this reading and
SessionHistory disagree, one of the two misreads the rules, and the file and SCHEMA-NOTES decide
which: this script is not the reference. No test or other script runs it.
"""
import json
import os
import sys
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from corpus_counts import displayed, usage  # noqa: E402
from corpus_records import load  # noqa: E402
from corpus_title import title  # noqa: E402

CORPUS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "claude-corpus", "jsonl")


def swift_string(text):
    """A Swift string literal of `text`, or nil."""
    if text is None:
        return "nil"
    return json.dumps(text, ensure_ascii=False).replace("\\u2026", "\u2026")


def expectation(name, data, entries):
    """The `CorpusExpectation(...)` literal of one file."""
    types = Counter(entry.get("type") for entry in entries)
    messages, tool_uses, paired, other_leaves = displayed(entries, "agent-" in name)
    (input_tokens, output_tokens, cache_creation, cache_read), responses = usage(entries)
    text, source = title(data)
    type_list = ", ".join(f'"{record_type}": {count}' for record_type, count in sorted(types.items()))
    return (f'    CorpusExpectation(file: "{name}", records: {len(entries)}, types: [{type_list or ":"}], '
            f'messages: {messages}, toolUses: {tool_uses}, pairedToolUses: {paired}, otherLeaves: {other_leaves}, '
            f'usage: TokenUsage(inputTokens: {input_tokens}, outputTokens: {output_tokens}, '
            f'cacheCreationInputTokens: {cache_creation}, cacheReadInputTokens: {cache_read}), '
            f'responses: {responses}, title: {swift_string(text)}, titleSource: {"." + source if source else "nil"}),')


for name in sorted(os.listdir(CORPUS)):
    if name.endswith(".jsonl"):
        data, entries = load(os.path.join(CORPUS, name))
        print(expectation(name, data, entries))
