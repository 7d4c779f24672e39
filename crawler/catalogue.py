"""The source catalogue: what the crawler knows how to fetch, one JSON object per line.

`catalogue.jsonl` lists every CR release with its original Wizards URL(s) and the witness
pages (articles, rules sites, wiki revisions, Gatherer rulings). Adding a source is adding a
line. Its `gap` lines are the releases the archive lacks (`archive/gaps.py` reads them); the
crawler passes over them until a URL is found and the gap becomes a `cr` line.
`build_release_entries` rebuilt the release lines once from the archive's manifest,
pit142857's `url.txt` and rulesraker's metadata; they are data now, edited by hand.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from archive.errors import CaptureError, RulesHistoryError
from archive.gaps import GAP_KIND
from archive.paths import read_inside
from crawler.limits import MAX_CATALOGUE_BYTES

CATALOGUE_FILE = Path(__file__).resolve().parent / "catalogue.jsonl"
CR_KIND, WITNESS_KIND = "cr", "witness"
RULES_PAGE_KIND = "rules-page"  # the official page linking the current CR (`update` reads it)
# rulesraker's and pit142857's names for releases the archive files under another date.
RENAMED = {"2006-06-01": "2004-06-01", "2009-07-11": "2009-07-08", "2009-10-01": "2009-10-05"}


class CatalogueError(RulesHistoryError):
    """A catalogue line that cannot be read, or a selection that matches nothing."""


@dataclass(frozen=True)
class Source:
    """One thing to capture: a CR release (its text file) or a witness page."""

    id: str
    kind: str
    urls: tuple[str, ...]
    release: str | None = None  # CR releases: the release date
    stated_date: str | None = None  # the date the text gives, checked by hand (archive manifest)
    parser: str | None = None  # witnesses: which parser reads the page
    content_type: str = "text/plain"  # what a good capture is served as
    captures: tuple[str, ...] = ()  # known Wayback timestamps, tried first
    quotes: str | None = None  # witnesses: the date of the CR wording it quotes, if fixed
    from_date: str | None = None  # CDX date range; CR releases default to their own date
    to_date: str | None = None
    published: str | None = None
    title: str | None = None
    notes: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_line(cls, data: dict[str, Any]) -> Source:
        known = set(cls.__dataclass_fields__) - {"extra"}
        values = {k: v for k, v in data.items() if k in known}
        values["urls"] = tuple(values.get("urls") or ())
        values["captures"] = tuple(values.get("captures") or ())
        return cls(**values, extra={k: v for k, v in data.items() if k not in known})


def load_catalogue(path: Path = CATALOGUE_FILE) -> list[Source]:
    """Every source in the catalogue, in file order; a bad line raises naming its number."""
    sources: list[Source] = []
    seen: set[str] = set()
    for number, line in enumerate(read_catalogue(path).splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if f'"kind": "{GAP_KIND}"' in line:  # a release the archive lacks: nothing to fetch
            continue
        try:
            source = Source.from_line(json.loads(line))
        except (json.JSONDecodeError, TypeError) as exc:
            raise CatalogueError(f"{path}, line {number}: not a catalogue entry ({exc})") from exc
        if source.id in seen:
            raise CatalogueError(f"{path}, line {number}: duplicate source id {source.id!r}")
        seen.add(source.id)
        sources.append(source)
    return sources


def read_catalogue(path: Path) -> str:
    """The catalogue's text: a regular file (never a FIFO or a device), under the size cap."""
    real = path.resolve()  # a catalogue may be a symlink; what it points to is read
    if not real.exists():
        raise CatalogueError(f"{path}: no such file")
    try:
        data = read_inside(real.parent, real.name, MAX_CATALOGUE_BYTES, "catalogue")
    except CaptureError as exc:
        raise CatalogueError(f"{path}: {exc.problem}") from exc
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CatalogueError(f"{path}: not UTF-8 text (byte {exc.start:,})") from exc


def select(
    sources: Iterable[Source], ids: Iterable[str] = (), releases: Iterable[str] = ()
) -> list[Source]:
    """Sources named by id or by release date; all of them when nothing is named."""
    ids, releases = set(ids), set(releases)
    chosen = list(sources)
    if not ids and not releases:
        return chosen
    picked = [s for s in chosen if s.id in ids or (s.release is not None and s.release in releases)]
    unknown = ids - {s.id for s in picked} | releases - {s.release for s in picked}
    if unknown:
        raise CatalogueError(f"not in the catalogue: {', '.join(sorted(unknown))}")
    return picked


_EIGHT = re.compile(r"(?<!\d)(\d{8})(?!\d)")
_SIX = re.compile(r"(?<!\d)(\d{6})(?!\d)")


def date_in_url(url: str, known: Collection[str] = ()) -> str | None:
    """The release date in an official file name, preferring a reading that is a known date.

    Wizards named files 20231117, 04082016, 100103 (MMDDYY) and 041001 (YYMMDD) over the
    years, so a six-digit name is read every way and a known release date wins.

    >>> date_in_url("http://www.wizards.com/magic/comprules/MagicCompRules100103.txt")
    '2003-10-01'
    >>> date_in_url("http://www.wizards.com/comprules/MagicCompRules041001.txt", {"2004-10-01"})
    '2004-10-01'
    >>> date_in_url("https://media.wizards.com/2023/downloads/MagicCompRules%2020231117.txt")
    '2023-11-17'
    >>> date_in_url("https://media.wizards.com/2016/docs/MagicCompRules_04082016.txt")
    '2016-04-08'
    """
    name = url.rsplit("/", 1)[-1]
    candidates = []
    if match := _EIGHT.search(name.replace("%20", " ")):
        d = match[1]
        candidates = [f"{d[:4]}-{d[4:6]}-{d[6:]}", f"{d[4:]}-{d[:2]}-{d[2:4]}"]
    elif match := _SIX.search(name):
        d = match[1]
        candidates = [f"20{d[4:]}-{d[:2]}-{d[2:4]}", f"20{d[:2]}-{d[2:4]}-{d[4:]}"]
        candidates.append(f"20{d[4:]}-{d[2:4]}-{d[:2]}")
    valid = [c for c in candidates if _is_date(c)]
    return next((c for c in valid if c in known), valid[0] if valid else None)


def _is_date(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def build_release_entries(captures_dir: Path) -> list[dict[str, Any]]:
    """The catalogue lines of the CR releases, from the archive's provenance files."""
    manifest = json.loads((captures_dir / "manifest.json").read_bytes())
    metadata = json.loads((captures_dir / "rulesraker-metadata.json").read_bytes())
    listed = (captures_dir / "sources-url-list.txt").read_text().split()
    urls: dict[str, list[str]] = {}
    captures: dict[str, list[str]] = {}
    archived = {e["date"] for e in manifest}
    known = archived | {RENAMED.get(d, d) for d in metadata.get("KnownExistingDates", [])}

    def add(date: str | None, url: str | None) -> None:
        if date and url and url.endswith(".txt") and url not in urls.setdefault(date, []):
            urls[date].append(url)

    for entry in sorted(manifest, key=lambda e: not e.get("preferred")):
        add(entry["date"], entry.get("original_url"))
    for url in listed:
        add(date_in_url(url, known), url)
    for found in metadata.get("FoundFiles", []):
        if found.get("Format") == "txt":
            date = RENAMED.get(found["Date"], found["Date"])
            add(date, found.get("OriginalURL"))
            stamp = re.search(r"/web/(\d{14})/", found.get("Source") or "")
            if stamp:
                captures.setdefault(date, []).append(stamp[1])
    for rule in metadata.get("Rules", []):
        if rule.get("Format") == "txt":
            add(RENAMED.get(rule["Date"], rule["Date"]), rule.get("URL"))
    for date in metadata.get("KnownExistingDates", []):
        urls.setdefault(RENAMED.get(date, date), [])
    for entry in manifest:  # releases whose Wizards URL is lost: the source repository's copy
        if not urls.get(entry["date"]) and entry.get("source_repo"):
            add(entry["date"], _repository_url(entry))
    stated = {e["date"]: e.get("stated_date") for e in manifest if e.get("preferred")}
    lines = [
        _release_line(d, urls[d], captures.get(d, []), d in archived, stated.get(d))
        for d in sorted(urls)
    ]
    originals = {e["date"]: e.get("original_url") for e in manifest if e.get("preferred")}
    derived = {e["date"] for e in manifest if e.get("preferred") and e.get("role") == "derived"}
    for line in lines:
        original = originals.get(line["release"]) or ""
        if original and not original.endswith(".txt"):
            line["notes"] = f"the Wizards original is {original}; this text is derived from it"
        elif line["release"] in derived:
            line["notes"] = (
                "only a derived copy is known (re-extracted text, not the official file);"
                " no Wizards URL of it is known"
            )
    return lines


def _repository_url(entry: dict[str, Any]) -> str:
    path = entry["source_path"].replace(" ", "%20")
    return (
        f"https://raw.githubusercontent.com/{entry['source_repo']}/{entry['source_commit']}/{path}"
    )


def _release_line(
    date: str, urls: list[str], stamps: list[str], archived: bool, stated: str | None
) -> dict[str, Any]:
    line: dict[str, Any] = {"id": f"cr-{date}", "kind": CR_KIND, "release": date}
    if stated:
        line["stated_date"] = stated
    line["urls"] = urls
    if stamps:
        line["captures"] = stamps
    if not archived:
        line["notes"] = "listed by pit142857 or rulesraker, not in the committed archive"
    elif urls and urls[0].startswith("https://raw.githubusercontent.com/"):
        line["notes"] = "no Wizards URL of a text file is known; the source repository's copy"
    return line
