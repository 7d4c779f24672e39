"""A stand-in of the official Magic rules site: a real HTTP server on 127.0.0.1 in a thread.

`/en/rules` is a page that links the current CR text file (as magic.wizards.com does),
and each text file is served as `text/plain` at its own path, as media.wizards.com does.
`publish` puts a text online and points the page at it; `down` makes every answer a 503.
"""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler
from urllib.parse import unquote, urlsplit

from loopback_server import LoopbackServer

PAGE_PATH = "/en/rules"


class OfficialSite(LoopbackServer):
    def __init__(self) -> None:
        self.files: dict[str, tuple[bytes, str]] = {}
        self.log: list[str] = []
        self.down = False
        super().__init__(type("Handler", (_Handler,), {"site": self}))

    @property
    def page_url(self) -> str:
        return self.url + PAGE_PATH

    def publish(self, name: str, data: bytes, content_type: str = "text/plain") -> str:
        """Serve `data` as `/2026/downloads/NAME` and link it from the rules page."""
        path = f"/2026/downloads/{name}"
        self.files[path] = (data, content_type)
        self.files[PAGE_PATH] = (rules_page(path).encode(), "text/html; charset=utf-8")
        return self.url + path

    def page_html(self) -> bytes:
        return self.files[PAGE_PATH][0]


def rules_page(text_path: str) -> str:
    """Markup in the manner of the official page: a PDF, a DOCX and the TXT of the CR."""
    stem = text_path.rsplit(".", 1)[0]
    return f"""<!DOCTYPE html><html><head><title>Rules | Magic: The Gathering</title></head>
<body><h1>Comprehensive Rules</h1>
<p>These rules are effective as of the date below.</p>
<a href="{stem}.pdf">PDF</a> <a href="{stem}.docx">DOCX</a>
<a href="{text_path.replace(" ", "%20")}">TXT</a>
<a href="javascript:alert(1)//MagicCompRules 20990101.txt">not a file</a>
</body></html>"""


class _Handler(BaseHTTPRequestHandler):
    site: OfficialSite
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass

    def do_GET(self) -> None:  # noqa: N802
        path = unquote(urlsplit(self.path).path)
        self.site.log.append(path)
        if self.site.down:
            body, status, content_type = b"unavailable", 503, "text/plain"
        elif path in self.site.files:
            (body, content_type), status = self.site.files[path], 200
        else:
            body, status, content_type = b"not found", 404, "text/plain"
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
