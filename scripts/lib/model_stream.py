"""A scripted message in the Messages API's two forms: the content of a plain JSON response, and
the server-sent events of a streamed one (message_start, each block's start, deltas and stop,
message_delta, message_stop), written to the HTTP response as they are made.
"""
import json
import time

SIGNATURE = "sig"  # the signature of every thinking block


def split(text, chunks):
    """`text` in `chunks` nearly equal parts (at least one, at most one a character)."""
    chunks = max(1, min(chunks, len(text) or 1))
    size = -(-len(text) // chunks)
    return [text[i:i + size] for i in range(0, len(text), size)] or [""]


def final_block(block):
    """The block as a non-streamed response's content holds it."""
    if block["type"] == "thinking":
        return {"type": "thinking", "thinking": block["thinking"], "signature": SIGNATURE}
    if block["type"] == "tool_use":
        return {"type": "tool_use", "id": block["id"], "name": block["name"], "input": block.get("input", {})}
    return {"type": "text", "text": block["text"]}


def event(output, name, data):
    """One server-sent event, flushed at once."""
    output.write(("event: %s\ndata: %s\n\n" % (name, json.dumps(data))).encode())
    output.flush()


def stream_message(output, message_id, model, blocks, stop, usage, pause):
    """The whole streamed message; `pause` seconds before each delta."""
    event(output, "message_start", {"type": "message_start", "message": {
        "id": message_id, "type": "message", "role": "assistant", "model": model, "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": dict(usage, output_tokens=1)}})
    for index, block in enumerate(blocks):
        stream_block(output, index, block, pause)
    event(output, "message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                    "usage": {"output_tokens": usage["output_tokens"]}})
    event(output, "message_stop", {"type": "message_stop"})


def stream_block(output, index, block, pause):
    """One content block: its start, its text (or thinking, or tool input) in "chunks" deltas, its stop."""
    chunks = int(block.get("chunks", 1))
    kind = block["type"]
    if kind == "text":
        start = {"type": "text", "text": ""}
        deltas = [{"type": "text_delta", "text": part} for part in split(block["text"], chunks)]
    elif kind == "thinking":
        start = {"type": "thinking", "thinking": "", "signature": ""}
        deltas = [{"type": "thinking_delta", "thinking": part} for part in split(block["thinking"], chunks)]
        deltas.append({"type": "signature_delta", "signature": SIGNATURE})
    elif kind == "tool_use":
        start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
        deltas = [{"type": "input_json_delta", "partial_json": json.dumps(block.get("input", {}))}]
    else:
        raise ValueError("unknown block type %r" % kind)
    event(output, "content_block_start", {"type": "content_block_start", "index": index, "content_block": start})
    for delta in deltas:
        if pause:
            time.sleep(pause)
        event(output, "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta})
    event(output, "content_block_stop", {"type": "content_block_stop", "index": index})
