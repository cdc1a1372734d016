"""A loopback OpenAI-compatible endpoint answering from a responder, for tests and benchmarks.

It stands in for vLLM or a llama.cpp server: ``POST /v1/chat/completions`` answered in
OpenAI's format. ``ChatOpenAI.with_structured_output`` asks for a JSON-schema
``response_format`` (which those servers enforce), so the answer is the responder's JSON for
that schema as the message content. Every process that reaches the URL (a Ray worker, a
server) gets the same answers, which an in-process scripted model cannot give.
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

from triqua.testing.scripted import Responder

__all__ = ["StubEndpoint", "stub_endpoint"]


@dataclass
class StubEndpoint:
    """A running stub: its base URL (``…/v1``) and the requests it received, in order."""

    base_url: str
    requests: list[dict[str, Any]] = field(default_factory=list)


class _Handler(BaseHTTPRequestHandler):
    """Answers each request from the server's responder after its latency."""

    server: _Server

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.stub.requests.append(
            {"path": self.path, "auth": self.headers.get("Authorization"), "body": body}
        )
        prompt = "\n\n".join(str(m.get("content") or "") for m in body["messages"])
        schema = (body.get("response_format") or {}).get("json_schema") or {}
        if "name" not in schema:
            self.send_error(400, "expected a json_schema response_format")
            return
        time.sleep(self.server.latency)
        answer = json.dumps(self.server.respond(schema["name"], prompt))
        choice = {"index": 0, "message": {"role": "assistant", "content": answer}}
        payload = json.dumps(
            {
                "id": "chatcmpl-stub",
                "object": "chat.completion",
                "created": 0,
                "model": body["model"],
                "choices": [{**choice, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test and benchmark output clean."""


class _Server(ThreadingHTTPServer):
    """The HTTP server, holding what its handlers answer with."""

    def __init__(self, respond: Responder, latency: float, stub: StubEndpoint) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.respond = respond
        self.latency = latency
        self.stub = stub


@contextmanager
def stub_endpoint(respond: Responder, *, latency: float = 0.0) -> Iterator[StubEndpoint]:
    """Serve ``respond(schema_name, prompt)`` on a loopback port for the block.

    Every answer waits ``latency`` seconds first (a model whose latency dominates); usage is
    reported as 100 prompt and 10 completion tokens a call.
    """
    stub = StubEndpoint("")
    server = _Server(respond, latency, stub)
    stub.base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield stub
    finally:
        server.shutdown()
        server.server_close()
