"""One run of `update`: find, fetch, verify and archive the current CR texts.

The network side is `crawler.official` (through the crawler's one HTTP policy), the
verification is the project's own parser (`crawler.cr_text`), the decision and the write
are `crawler.release_store`. Ingest and the site are the callers' (`update_cli`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from archive.parse import ParsedRelease
from crawler.cr_text import parse_cr_text
from crawler.official import Fetched, RulesPage, fetch_text, find_current
from crawler.release_store import KNOWN, Decision, add, decide, now_utc, read_entries
from crawler.wayback import BadCapture, WaybackSession


@dataclass
class UpdateResult:
    decisions: list[tuple[Decision, str]] = field(default_factory=list)  # (decision, url)
    added: list[dict[str, Any]] = field(default_factory=list)  # manifest entries written
    problems: list[str] = field(default_factory=list)
    ingested: list[Any] = field(default_factory=list)
    site: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "found": [{**d.as_dict(), "url": url} for d, url in self.decisions],
            "added": self.added,
            "ingested": len(self.ingested),
            "site": self.site,
            "problems": self.problems,
        }

    def lines(self, dry_run: bool) -> list[str]:
        out = []
        for decision, url in self.decisions:
            if decision.action == KNOWN:
                out.append(f"up to date: {url} is release {decision.release} ({decision.file})")
            elif dry_run:
                out.append(
                    f"would add {decision.file}: {decision.action} {decision.release}"
                    f" (states {decision.stated_date}, sha256 {decision.sha256[:12]}) from {url},"
                    " then ingest it and rebuild the site"
                )
            else:
                out.append(
                    f"added {decision.file}: {decision.action} {decision.release}"
                    f" (states {decision.stated_date}, sha256 {decision.sha256[:12]}) from {url}"
                )
        if self.ingested:
            out.append(f"ingested {len(self.ingested)} new captures")
        if self.site is not None:
            out.append(
                f"site: {self.site['pages_rendered']} pages rendered,"
                f" {self.site['pages_skipped']} unchanged"
            )
        return out


def newest_release(captures_dir: Path) -> str | None:
    dates = [str(e.get("date")) for e in read_entries(captures_dir) if e.get("date")]
    return max(dates) if dates else None


def run_update(
    page: RulesPage,
    session: WaybackSession,
    wayback: WaybackSession,
    captures_dir: Path,
    today: str,
    dry_run: bool = False,
) -> UpdateResult:
    """Every CR text the rules page links, decided on and (unless `dry_run`) archived."""
    result = UpdateResult()
    found, problems = find_current(page, session, wayback, since=newest_release(captures_dir))
    result.problems.extend(problems)
    for link in found:
        fetched, problems = fetch_text(link, session, wayback, check=_check_dated_cr)
        result.problems.extend(problems)
        if fetched is None:
            continue
        parsed = parse_cr_text(fetched.data, fetched.url)
        decision = decide(captures_dir, fetched.data, parsed, today)
        result.decisions.append((decision, fetched.url))
        if decision.action != KNOWN and not dry_run:
            result.added.append(add(captures_dir, decision, fetched.data, _provenance(fetched)))
    return result


def _check_dated_cr(data: bytes, url: str) -> None:
    """A `BodyCheck`: a CR text reaching its glossary that states its date."""
    parsed: ParsedRelease = parse_cr_text(data, url)
    if not parsed.stated_date_text:
        raise BadCapture(url, "a CR text that states no date ('effective as of ...')")


def _provenance(fetched: Fetched) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "original_url": fetched.url,
        "fetched_from": fetched.fetched_from,
        "fetched_at": now_utc(),
        "found_on": fetched.found.page,
        "found_via": fetched.found.via,
    }
    if fetched.capture_time:
        entry["capture_time"] = fetched.capture_time
    entry["notes"] = f"added by `rules-history update` from {fetched.fetched_from}"
    return entry
