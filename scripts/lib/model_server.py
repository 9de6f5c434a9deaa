#!/usr/bin/env python3
"""A scripted Anthropic Messages API server on 127.0.0.1, for driving the real Claude Code CLI offline.

    model_server.py --script SCRIPT.json --port-file PORTFILE [--log REQUESTS.jsonl]

It listens on a free port, writes the port to PORTFILE once it accepts connections, and answers
each conversation request (POST /v1/messages with tools, i.e. the CLI's main loop) with the next
turn of the script. Side requests (no tools: titles, summaries, quota probes) and compaction
requests get a short text (or <summary>) answer and do not consume a turn. Every request body is
appended to the log as one JSON line.

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

The parts: model_turns.py (which answer a request gets), model_handler.py (HTTP), model_stream.py
(a message as JSON content or server-sent events).
"""
import argparse
import http.server
import json
import os
import socketserver
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_handler import Handler  # noqa: E402
from model_turns import Script  # noqa: E402


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    """The server on a free port of 127.0.0.1, with the script and the request log."""

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
    # Written aside and renamed, so that a reader of PORTFILE never sees a partial number.
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
