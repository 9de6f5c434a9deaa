"""Which answer a request to model_server.py gets: the script's next turn, or a fixed answer for
the requests that are not the conversation's own (side requests, compaction), and a turn's blocks.
"""
import threading

# The `type` of an Anthropic API error body, by HTTP status; any other status is an api_error.
ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}
# Reported when a turn gives no usage of its own (its "usage" replaces these keys one by one).
DEFAULT_USAGE = {"input_tokens": 12, "output_tokens": 7, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
END_OF_SCRIPT = {"text": "(end of script)"}
# Requests without tools (titles, summaries, quota probes) get this and do not consume a turn.
SIDE_ANSWER = {"text": "Side answer."}
# Claude Code's compaction request (auto or /compact) asks, with the tools attached, for an
# <analysis> and a <summary> block; it is answered here so it does not consume a scripted turn.
COMPACTION_MARKER = "create a detailed summary of the conversation"
COMPACT_SUMMARY = "<analysis>Scripted analysis.</analysis>\n<summary>Scripted summary of the conversation.</summary>"


class Script:
    """The scripted turns, taken one a conversation request; a turn with "repeat" answers every later one too."""

    def __init__(self, turns):
        self.turns = list(turns)
        self.lock = threading.Lock()
        self.sticky = None

    def next_turn(self):
        with self.lock:
            if self.sticky is not None:
                return self.sticky
            if not self.turns:
                return dict(END_OF_SCRIPT)
            turn = self.turns.pop(0)
            if turn.get("repeat"):
                self.sticky = turn
            return turn


def turn_for(body, script):
    """The turn that answers a request body to /v1/messages."""
    if not body.get("tools"):
        return dict(SIDE_ANSWER)
    if is_compaction(body):
        return {"text": COMPACT_SUMMARY}
    return script.next_turn()


def blocks_of(turn):
    """The turn's content blocks; {"text": ...} is the short form of one text block."""
    if "text" in turn and "blocks" not in turn:
        return [{"type": "text", "text": turn["text"]}]
    return turn.get("blocks", [])


def last_user_text(body):
    messages = body.get("messages") or []
    if not messages:
        return ""
    content = messages[-1].get("content", "")
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") for block in content if isinstance(block, dict))


def is_compaction(body):
    return COMPACTION_MARKER in last_user_text(body)
