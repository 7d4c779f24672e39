"""A real HTTP server on 127.0.0.1 in a daemon thread, for the tests' stand-ins of remote sites.

Each stand-in (the Wayback Machine, the official rules site) subclasses `LoopbackServer`
with its own handler class; this module owns only the start, the address and the stop.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler
from typing import Self

from renderer.serve import SiteServer

POLL_SECONDS = 0.05  # how soon `shutdown` is noticed; short so a test's teardown is quick


class LoopbackServer:
    """Serves `handler` on a free port of 127.0.0.1 while used as a context manager."""

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        # the site's own server: a crawler under test hangs up on purpose (a drip cut at its
        # deadline, a body over its cap), and a reader that goes away gets no traceback there
        self.server = SiteServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": POLL_SECONDS}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
