"""A tiny OpenAI-compatible chat server on loopback that answers with a scripted list of behaviours.

It stands in for a hosted API (which cannot be reached here) so that retries, fail-fast and
context-window handling are exercised over real HTTP through litellm.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    status: int = 200
    delay_s: float = 0.0
    content: str | None = "ok"
    tool_calls: list[dict[str, Any]] | None = None
    error: str = "scripted error"
    finish_reason: str = "stop"
    usage: dict[str, Any] = field(
        default_factory=lambda: {
            "prompt_tokens": 11,
            "completion_tokens": 7,
            "total_tokens": 18,
            "completion_tokens_details": {"reasoning_tokens": 3},
        }
    )


@dataclass
class FakeServer:
    script: list[Reply]
    requests: list[dict[str, Any]] = field(default_factory=list)
    url: str = ""

    def next_reply(self) -> Reply:
        return self.script.pop(0) if self.script else Reply()


def _handler(server: FakeServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            server.requests.append(body)
            reply = server.next_reply()
            if reply.delay_s:
                time.sleep(reply.delay_s)
            if reply.status != 200:
                payload: dict[str, Any] = {
                    "error": {"message": reply.error, "type": "invalid_request_error", "code": None}
                }
            else:
                message: dict[str, Any] = {"role": "assistant", "content": reply.content}
                if reply.tool_calls:
                    message["tool_calls"] = reply.tool_calls
                payload = {
                    "id": "chatcmpl-1",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": body.get("model", "fake"),
                    "choices": [
                        {"index": 0, "message": message, "finish_reason": reply.finish_reason}
                    ],
                    "usage": reply.usage,
                }
            data = json.dumps(payload).encode()
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test)

    return Handler


@contextmanager
def fake_openai(script: list[Reply]) -> Iterator[FakeServer]:
    server = FakeServer(list(script))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(server))
    httpd.daemon_threads = True
    server.url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        httpd.shutdown()
        httpd.server_close()
