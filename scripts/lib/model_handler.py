"""The HTTP side of model_server.py: each request is logged, then answered with a JSON body, a
scripted HTTP error, or the scripted turn as a message (streamed when the request asks for it).
"""
import http.server
import json
import time
import uuid

from model_stream import final_block, stream_message
from model_turns import DEFAULT_USAGE, ERROR_TYPES, blocks_of, turn_for


def new_id(prefix):
    return prefix + uuid.uuid4().hex[:20]


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
        self.answer(body, body.get("model", "claude-test"), turn_for(body, self.server.script))

    def answer(self, body, model, turn):
        """After the turn's "delay": its HTTP error, or its blocks as one message."""
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
                block = dict(block, id=block.get("id") or new_id("toolu_"))
            blocks.append(block)
        stop = "tool_use" if any(block["type"] == "tool_use" for block in blocks) else "end_turn"
        usage = dict(DEFAULT_USAGE)
        usage.update(turn.get("usage", {}))
        message_id = new_id("msg_")
        if not body.get("stream"):
            content = [final_block(block) for block in blocks]
            return self.send_json(200, {"id": message_id, "type": "message", "role": "assistant", "model": model,
                                        "content": content, "stop_reason": stop, "stop_sequence": None, "usage": usage})
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("connection", "close")
        self.end_headers()
        self.close_connection = True
        try:
            stream_message(self.wfile, message_id, model, blocks, stop, usage, float(turn.get("chunk_delay", 0)))
        except (BrokenPipeError, ConnectionResetError):
            pass  # the CLI hung up (interrupt): nothing to finish
