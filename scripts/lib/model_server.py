#!/usr/bin/env python3
"""A scripted Anthropic Messages API server on 127.0.0.1, for driving the real Claude Code CLI offline.

    model_server.py --script SCRIPT.json --port-file PORTFILE [--log REQUESTS.jsonl]

It listens on a free port, writes the port to PORTFILE once it accepts connections, and answers
each conversation request (POST /v1/messages with tools, i.e. the CLI's main loop) with the next
turn of the script. Side requests (no tools: titles, summaries, quota probes) and compaction
requests get a short text (or <summary>) answer and do not consume a turn. Every request body is appended to the log as one JSON line.

Script format (JSON):

    {"turns": [
        {"blocks": [
            {"type": "thinking", "thinking": "Let me look."},
            {"type": "text", "text": "Hello", "chunks": 3},
            {"type": "tool_use", "name": "Bash", "input": {"command": "ls"}}
         ],
         "delay": 0.5,          # seconds before the response starts
         "chunk_delay": 0.2,    # seconds between streamed deltas
         "usage": {"input_tokens": 990000}},   # reported usage (default 12 in, 7 out): a full context
        {"status": 529, "repeat": true},   # HTTP error (500, 401, 529 overloaded, ...); repeat: every later request too
        {"text": "short form for one text block"}
    ]}

A turn with tool_use blocks ends with stop_reason "tool_use", so the CLI runs the tools and sends
their results in the next request. When the script runs out, the answer is "(end of script)".
"""
import argparse
import json
import os
import socketserver
import sys
import threading
import time
import uuid
import http.server

ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


class Script:
    def __init__(self, turns):
        self.turns = list(turns)
        self.lock = threading.Lock()
        self.sticky = None

    def next_turn(self):
        with self.lock:
            if self.sticky is not None:
                return self.sticky
            if not self.turns:
                return {"text": "(end of script)"}
            turn = self.turns.pop(0)
            if turn.get("repeat"):
                self.sticky = turn
            return turn


def blocks_of(turn):
    if "text" in turn and "blocks" not in turn:
        return [{"type": "text", "text": turn["text"]}]
    return turn.get("blocks", [])


def split(text, chunks):
    chunks = max(1, min(chunks, len(text) or 1))
    size = -(-len(text) // chunks)
    return [text[i:i + size] for i in range(0, len(text), size)] or [""]


# Claude Code's compaction request (auto or /compact) asks, with the tools attached, for an
# <analysis> and a <summary> block; it is answered here so it does not consume a scripted turn.
COMPACTION_MARKER = "create a detailed summary of the conversation"
COMPACT_SUMMARY = "<analysis>Scripted analysis.</analysis>\n<summary>Scripted summary of the conversation.</summary>"


def last_user_text(body):
    messages = body.get("messages") or []
    if not messages:
        return ""
    content = messages[-1].get("content", "")
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") for block in content if isinstance(block, dict))


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "rws-model-server"

    def log_message(self, *args):
        pass

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()

    def do_GET(self):
        self.send_json(200, {})

    def send_json(self, status, payload, headers=()):
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        length = int(self.headers.get("content-length", "0"))
        raw = self.rfile.read(length) if length else b"{}"
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        self.server.record({"path": self.path, "body": body})
        if "count_tokens" in self.path:
            return self.send_json(200, {"input_tokens": 10})
        if not self.path.startswith("/v1/messages"):
            return self.send_json(404, {"type": "error", "error": {"type": "not_found_error", "message": self.path}})
        model = body.get("model", "claude-test")
        if not body.get("tools"):
            return self.answer(body, model, {"text": "Side answer."})
        if self.is_compaction(body):
            return self.answer(body, model, {"text": COMPACT_SUMMARY})
        self.answer(body, model, self.server.script.next_turn())

    def answer(self, body, model, turn):
        time.sleep(float(turn.get("delay", 0)))
        status = int(turn.get("status", 200))
        if status != 200:
            kind = ERROR_TYPES.get(status, "api_error")
            message = turn.get("message", "scripted %d" % status)
            headers = [("x-should-retry", "false")] if turn.get("no_retry") else []
            return self.send_json(status, {"type": "error", "error": {"type": kind, "message": message}}, headers)
        blocks = []
        for block in blocks_of(turn):
            if block["type"] == "tool_use":
                block = dict(block, id=block.get("id") or "toolu_" + uuid.uuid4().hex[:20])
            blocks.append(block)
        stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
        usage = {"input_tokens": 12, "output_tokens": 7, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
        usage.update(turn.get("usage", {}))
        message_id = "msg_" + uuid.uuid4().hex[:20]
        if not body.get("stream"):
            content = [self.final_block(b) for b in blocks]
            return self.send_json(200, {"id": message_id, "type": "message", "role": "assistant", "model": model,
                                        "content": content, "stop_reason": stop, "stop_sequence": None, "usage": usage})
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("connection", "close")
        self.end_headers()
        self.close_connection = True
        pause = float(turn.get("chunk_delay", 0))
        try:
            self.event("message_start", {"type": "message_start", "message": {
                "id": message_id, "type": "message", "role": "assistant", "model": model, "content": [],
                "stop_reason": None, "stop_sequence": None, "usage": dict(usage, output_tokens=1)}})
            for index, block in enumerate(blocks):
                self.stream_block(index, block, pause)
            self.event("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                         "usage": {"output_tokens": usage["output_tokens"]}})
            self.event("message_stop", {"type": "message_stop"})
        except (BrokenPipeError, ConnectionResetError):
            pass  # the CLI hung up (interrupt): nothing to finish

    @staticmethod
    def is_compaction(body):
        return COMPACTION_MARKER in last_user_text(body)

    @staticmethod
    def final_block(block):
        if block["type"] == "thinking":
            return {"type": "thinking", "thinking": block["thinking"], "signature": "sig"}
        if block["type"] == "tool_use":
            return {"type": "tool_use", "id": block["id"], "name": block["name"], "input": block.get("input", {})}
        return {"type": "text", "text": block["text"]}

    def stream_block(self, index, block, pause):
        chunks = int(block.get("chunks", 1))
        kind = block["type"]
        if kind == "text":
            start = {"type": "text", "text": ""}
            deltas = [{"type": "text_delta", "text": part} for part in split(block["text"], chunks)]
        elif kind == "thinking":
            start = {"type": "thinking", "thinking": "", "signature": ""}
            deltas = [{"type": "thinking_delta", "thinking": part} for part in split(block["thinking"], chunks)]
            deltas.append({"type": "signature_delta", "signature": "sig"})
        elif kind == "tool_use":
            start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            deltas = [{"type": "input_json_delta", "partial_json": json.dumps(block.get("input", {}))}]
        else:
            raise ValueError("unknown block type %r" % kind)
        self.event("content_block_start", {"type": "content_block_start", "index": index, "content_block": start})
        for delta in deltas:
            if pause:
                time.sleep(pause)
            self.event("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta})
        self.event("content_block_stop", {"type": "content_block_stop", "index": index})

    def event(self, name, data):
        self.wfile.write(("event: %s\ndata: %s\n\n" % (name, json.dumps(data))).encode())
        self.wfile.flush()


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, script, log_path):
        super().__init__(("127.0.0.1", 0), Handler)
        self.script = script
        self.log_path = log_path
        self.log_lock = threading.Lock()

    def record(self, entry):
        if not self.log_path:
            return
        with self.log_lock, open(self.log_path, "a") as log:
            log.write(json.dumps(entry) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--script", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--log")
    args = parser.parse_args()
    with open(args.script) as handle:
        script = Script(json.load(handle).get("turns", []))
    server = Server(script, args.log)
    temporary = args.port_file + ".tmp"
    with open(temporary, "w") as handle:
        handle.write(str(server.server_address[1]))
    os.rename(temporary, args.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == "__main__":
    main()
