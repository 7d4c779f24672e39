"""The official "Comprehensive Rules changes" articles of a captures folder, parsed: what
`ingest` hands to `archive.explanations`.

They live in `bulletins/` (the markdown files, bytes untouched, and `index.json` with each
one's title, date, set, source and sha256). A file whose bytes do not match its sha256 is
reported by name and skipped.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from archive.explanations import ArticleInfo
from crawler.parsers.bulletins import Bulletin, parse_bulletin

BULLETINS_DIR = "bulletins"
INDEX = "index.json"


def bulletin_articles(
    captures_dir: Path,
) -> tuple[list[tuple[ArticleInfo, Bulletin]], list[tuple[str, str]]]:
    """Every article of the folder's `bulletins/index.json`, parsed; and the failures."""
    root = captures_dir / BULLETINS_DIR
    if not (root / INDEX).exists():
        return [], []
    articles, failed = [], []
    for item in json.loads((root / INDEX).read_text(encoding="utf-8"))["articles"]:
        path = root / item["file"]
        try:
            data = path.read_bytes()
        except OSError as error:
            failed.append((path.as_posix(), f"cannot read: {error}"))
            continue
        if hashlib.sha256(data).hexdigest() != item["sha256"]:
            failed.append((path.as_posix(), "sha256 differs from bulletins/index.json"))
            continue
        accompanies = item.get("accompanies_cr_release") or {}
        stated = accompanies.get("effective_date_stated_in_article")
        info = ArticleInfo(
            file=path.relative_to(captures_dir).as_posix(),  # as the store names captures
            sha256=item["sha256"],
            title=item["title"],
            publish_date=item["publish_date"],
            set_code=item["set"]["code"],
            set_name=item["set"]["name"],
            url=item.get("original_url"),
            stated_release=stated[:10] if stated else None,
            indexed_release=accompanies.get("effective_date_per_vensersjournal_cr_filename"),
        )
        bulletin = parse_bulletin(data.decode("utf-8"), info.file, item["sha256"], item["title"])
        articles.append((info, bulletin))
    return articles, failed
