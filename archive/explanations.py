"""The official explanations: each entry of a "Comprehensive Rules changes" article, matched
to the change it explains.

An article accompanies one release. Its entries list rule numbers (sometimes the numbers of
a draft, sometimes a typo), glossary terms, or a topic ("Cleave"). Each entry is matched
against our changes between that release and the one before (the lineage events of the
release, the same changes `lineage.compare.diff_releases` lists for two neighbours):

1. by number: a change whose old or new number is the listed one (`number`); where several
   are, the one the article means (`_meant_by_number`);
2. by its subrules, when the heading says so ("123 (and its subrules)") or when the listed
   number did not change itself but rules under it did (`subrule`);
3. by term: a glossary entry of that name, or a keyword rule whose whole text is the term
   (`term`).

An entry that matches nothing is a finding, stored and shown as such, with the reason: the
number is in the release but our diff has no change to it (`listed-unchanged`; or
`example-changed` when only its examples changed, which lineages leave out), or the
release has no such number at all (`not-in-release`, a draft number or a typo), or no
glossary entry or rule has the term (`term-not-found`). Phrases the explanation quotes are
looked up in the old and new wording of what it matched (`quoted` keeps each with where it
was found); the articles rarely quote rule text, so a phrase found in neither is noted, not
counted as a finding.

Which release an article accompanies: the article's own statement where it makes one (the
Magic 2010 article: July 11, 2009); otherwise the release, among those within
`RELEASE_WINDOW_DAYS` of its publication, whose changes match most of its entries. The
basis is stored with the article (and compared with the date the index gives, if any).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cached_property
from typing import Any

from sqlite_utils import Database

from archive.normalise import normalise
from archive.store import alignment_identities
from archive.witnesses import comparison_form
from vocabulary.kinds import ADDED, RENUMBERED, SPLIT
from vocabulary.numbers import is_under

# Bump when matching changes: stored explanations are then matched again. (What the parser
# made of each article is part of the key: a parser that reads an entry anew matches again.)
EXPLANATIONS_VERSION = 8
MATCHED = "matched"
LISTED_UNCHANGED, EXAMPLE_CHANGED, NOT_IN_RELEASE, TERM_NOT_FOUND = (
    "listed-unchanged",
    "example-changed",
    "not-in-release",
    "term-not-found",
)
# A matched entry whose heading calls a rule new ("106.10 (new)") where the lineage continues
# an older clause: the article and the alignment disagree, and the page says so.
CALLED_NEW = "called-new"
_NEW_MARK = r"\s*\((?:new|New|NEW)\)"
# An explanation that opens by calling its one rule new ("This new rule...", "This is a new
# rule for megamorph", "A new subrule..."); "Several new rules have been added" is no such.
_NEW_RULE_SAID = re.compile(
    r"(?:this|the|a)\s+(?:is\s+(?:a|the)\s+)?new\s+(?:sub)?rule\b", re.IGNORECASE
)
UNNEW_KINDS = frozenset({ADDED, SPLIT})  # kinds of change that begin a clause
# Articles come out a week or two either side of their release (Unfinity's ten days after).
RELEASE_WINDOW_DAYS = 45
# A keyword rule's text is its keyword ("Cleave"); longer texts are never a topic's name.
TERM_TEXT_LIMIT = 60
NAME_ADDED = "name-added"  # how a topic's listed name matched: a change added it
# how a listed number matched the changed rule that says what the entry quotes, when the
# number names only a rule renumbered word for word (`_quoted_instead`)
QUOTED = "quoted"
# An explanation that opens by telling what the rule said before ("This rule stated that
# double-faced cards could never be face down.") speaks of the rule that had the number.
_SAID_BEFORE = re.compile(
    r"^\s*(?:this rule (?:stated|said|used to|previously)|previously,? this rule)",
    re.IGNORECASE,
)
# A heading like "123 (and its subrules)" names a section whose rules changed wholesale.
SUBRULE_FALLBACK_LIMIT = 40


@dataclass
class ArticleInfo:
    """What the articles' index says of one article."""

    file: str
    sha256: str
    title: str
    publish_date: str
    set_code: str
    set_name: str
    url: str | None
    stated_release: str | None = None  # a date the article itself states
    indexed_release: str | None = None  # the date the index gives from file names


@dataclass
class _Change:
    release: str
    lineage: int
    kind: str
    labels: list[str]
    new_labels: list[str]  # the numbers (or terms) it has in the release, not before
    old_text: str
    new_text: str
    term: str = ""  # a keyword rule's whole text ("Cleave"), folded, for matching topics

    @cached_property
    def folded_texts(self) -> tuple[str, str]:
        """Old and new text, typography folded: read by every listed name of every article
        weighed against this release, so folded once."""
        return normalise(self.old_text), normalise(self.new_text)


@dataclass
class ReleaseChanges:
    """One release's changes from the one before, indexed for matching."""

    date: str
    previous: str | None
    changes: list[_Change] = field(default_factory=list)
    by_label: dict[str, list[_Change]] = field(default_factory=dict)
    numbers: set[str] = field(default_factory=set)
    examples_changed: set[str] = field(default_factory=set)  # rules whose examples changed

    @classmethod
    def load(cls, db: Database, release: str) -> ReleaseChanges:
        previous = db.execute(
            "SELECT max(date) FROM releases WHERE date < ?", [release]
        ).fetchone()[0]
        loaded = cls(release, previous)
        for lineage, kind, old, new, old_text, new_text in db.execute(
            """SELECT e.lineage_id, e.kind, e.old_numbers, e.new_numbers, ov.text, nv.text
               FROM lineage_events e
               LEFT JOIN parts op ON op.id = e.old_part_id
               LEFT JOIN clause_versions ov ON ov.hash = op.version_hash
               LEFT JOIN parts np ON np.id = e.new_part_id
               LEFT JOIN clause_versions nv ON nv.hash = np.version_hash
               WHERE e.release = ? AND e.kind != 'unchanged' ORDER BY e.id""",
            [release],
        ):
            olds, news = json.loads(old), json.loads(new)
            labels = list(dict.fromkeys(olds + news))
            change = _Change(release, lineage, kind, labels, news, old_text or "", new_text or "")
            if len(change.new_text) <= TERM_TEXT_LIMIT and labels[0][:1].isdigit():
                change.term = _key(change.new_text)
            loaded.changes.append(change)
            for label in labels:
                loaded.by_label.setdefault(_key(label), []).append(change)
        loaded.numbers = {
            row[0]
            for row in db.execute(
                "SELECT number FROM lineage_members WHERE release = ? AND number IS NOT NULL",
                [release],
            )
        }
        loaded.examples_changed = _examples_changed(db, previous, release)
        return loaded


def _examples_changed(db: Database, previous: str | None, release: str) -> set[str]:
    """Rules whose examples differ between the two releases (lineages leave examples out),
    compared by their typography-folded form."""
    if previous is None:
        return set()
    examples: dict[str, dict[str, list[str]]] = {previous: {}, release: {}}
    for day, parent, folded in db.execute(
        """SELECT r.date, p.parent, v.normalised_hash FROM releases r
           JOIN parts p ON p.capture_id = r.capture_id
           JOIN clause_versions v ON v.hash = p.version_hash
           WHERE r.date IN (?, ?) AND p.kind = 'example' AND p.parent IS NOT NULL
           ORDER BY p.position""",
        [previous, release],
    ):
        examples[day].setdefault(parent, []).append(folded)
    before, after = examples[previous], examples[release]
    return {rule for rule in before.keys() | after.keys() if before.get(rule) != after.get(rule)}


def _cached(db: Database, cache: dict[str, ReleaseChanges], release: str) -> ReleaseChanges:
    """A release's changes, loaded once per run."""
    if release not in cache:
        cache[release] = ReleaseChanges.load(db, release)
    return cache[release]


def _key(label: str) -> str:
    """Numbers as they are; terms folded: case, hyphens, a plural 's'."""
    if label[:1].isdigit():
        return label
    folded = re.sub(r"[\s\-–]+", " ", normalise(label).casefold()).strip()
    return folded[:-1] if folded.endswith("s") and len(folded) > 3 else folded


def _under(number: str, prefix: str) -> bool:
    return number != prefix and number[:1].isdigit() and is_under(number, prefix)


def match_entry(
    entry: Any, release: ReleaseChanges, earlier: ReleaseChanges | None = None
) -> tuple[list[tuple[_Change, str, str]], str]:
    """The changes an entry explains, each with its label and how it matched; and the
    finding ('' when something matched).

    With `earlier` (the release before), a listed number that did not change in `release`
    but did in `earlier`, itself or its subrules, matches there (`number-earlier`,
    `subrule-earlier`): an article sometimes explains a change that a small release in
    between already carried (Ixalan's 120.2a came with the Commander 2017 release; Throne of
    Eldraine's two new subrules of goad, 701.37, with the release of August 2019).
    """
    found: list[tuple[_Change, str, str]] = []
    missing: list[str] = []
    past = bool(_SAID_BEFORE.match(entry.explanation))
    for number in entry.numbers:
        here = _changes_of(release, number, entry.subrules, "", past)
        if not here and earlier is not None and number in release.numbers:
            here = _changes_of(earlier, number, entry.subrules, "-earlier", past)
        here = _quoted_instead(entry.quoted, number, here, release) or here
        if here:
            found.extend(here)
        else:
            missing.append(number)
    for term in entry.terms:
        hits = [(c, term, "term") for c in release.by_label.get(_key(term), [])]
        if entry.kind == "topic":  # "Cleave": the keyword rule whose whole text is the term
            hits += [(c, term, "term") for c in release.changes if c.term == _key(term)]
        if entry.names_listed and not hits:  # a new subtype's name: the changes that added it
            hits = [(c, term, NAME_ADDED) for c in _changes_adding(release, term)]
        if hits:
            found.extend(hits)
        else:
            missing.append(term)
    unique = list({(id(c), label): (c, label, how) for c, label, how in found}.values())
    return unique, _finding(entry, missing, release)


def _changes_of(
    release: ReleaseChanges, number: str, subrules: bool, suffix: str, past: bool = False
) -> list[tuple[_Change, str, str]]:
    """The changes of `release` a listed number names: its own (`number`), with those of its
    subrules when the entry says so, else its subrules' (`subrule`) when there are few
    enough (`SUBRULE_FALLBACK_LIMIT`); `suffix` is added to how each matched. `past`: the
    entry tells what the rule said before (`_meant_by_number`)."""
    named = _meant_by_number(release.by_label.get(number, []), number, past)
    exact = [(c, number, "number" + suffix) for c in named]
    below = [
        (c, label, "subrule" + suffix)
        for c in release.changes
        for label in c.labels
        if _under(label, number)
    ]
    if exact:
        return exact + below if subrules else exact
    return below if len(below) <= SUBRULE_FALLBACK_LIMIT or subrules else []


def _meant_by_number(changes: list[_Change], number: str, past: bool = False) -> list[_Change]:
    """Of the changes that have `number` before or after, those an article listing it means.

    A renumbering moves rules onto and off numbers, so one number is often carried by two
    changes. Articles list the rules whose words changed: a new or reworded rule by the number
    it has now, a deleted one by the number it had. So a rule only renumbered, word for word,
    is not meant when another change carries the number (Ixalan's "702.36f" is the new rule on
    X in a morph cost, not the old 702.36f, now 702.36g; Magic Origins' "107.13" is the deleted
    sun-and-moon rule, not 107.15 moved up into its place); and of the rest, the one that has
    the number now is, as the articles number the rules of the release they accompany;
    unless the entry tells what the rule said before (`past`, `_SAID_BEFORE`): then the one
    that had it, renumbered or not (Fate Reforged's "711.6: This rule stated that
    double-faced cards could never be face down" is the old 711.6, now 711.9, not 711.4
    moved onto 711.6; its "711.9: This rule previously explained how to exile a checklist"
    is the old 711.9, now 711.3)."""
    if past:
        before = [change for change in changes if number not in change.new_labels]
        if before and len(before) < len(changes):
            return before
    changed = [change for change in changes if change.kind != RENUMBERED] or changes
    now = [change for change in changed if number in change.new_labels]
    return now or changed


def _quoted_instead(
    quotes: list[str], number: str, here: list[tuple[_Change, str, str]], release: ReleaseChanges
) -> list[tuple[_Change, str, str]]:
    """The change an entry means when the number it lists names only a rule renumbered word
    for word, which says none of what it quotes, and one changed rule of the same section
    says it (`QUOTED`): the article numbered the rule otherwise (Dominaria's "700.7: This
    rule defines "historic."" is 700.6, new, which defines it; 700.7 is the rule on sets,
    moved down from 700.6). Else nothing."""
    if not quotes or not here or any(change.kind != RENUMBERED for change, _l, _h in here):
        return []
    forms = [form for quote in quotes if (form := comparison_form(quote).rstrip(".,"))]
    if not forms or any(f in _new_form(change) for change, _l, _h in here for f in forms):
        return []
    section = number.split(".")[0]
    found = [
        (change, label)
        for change in release.changes
        if change.kind != RENUMBERED
        for label in change.new_labels[:1]
        if label.split(".")[0] == section and any(form in _new_form(change) for form in forms)
    ]
    return [(found[0][0], found[0][1], QUOTED)] if len(found) == 1 else []


def _new_form(change: _Change) -> str:
    return comparison_form(change.new_text)


def _changes_adding(release: ReleaseChanges, name: str) -> list[_Change]:
    """The changes whose new text has `name` as a word (or words) their old text lacks;
    typography folded, so "C'tan" is found as the rules print it."""
    pattern = re.compile(rf"(?<!\w){re.escape(normalise(name))}(?!\w)")
    return [
        change
        for change in release.changes
        if pattern.search(change.folded_texts[1]) and not pattern.search(change.folded_texts[0])
    ]


def _finding(entry: Any, missing: list[str], release: ReleaseChanges) -> str:
    if not missing:
        return ""
    reasons = []
    for item in missing:
        if entry.names_listed:
            reasons.append(f"{TERM_NOT_FOUND}: no change in {release.date} adds the name {item!r}")
        elif not item[:1].isdigit():
            reasons.append(
                f"{TERM_NOT_FOUND}: no change in {release.date} to a glossary "
                f"entry or rule named {item!r}"
            )
        elif item in release.examples_changed:
            reasons.append(
                f"{EXAMPLE_CHANGED}: the words of {item} did not change from "
                f"{release.previous}, its examples did (our diff compares words)"
            )
        elif item in release.numbers:
            reasons.append(
                f"{LISTED_UNCHANGED}: {item} is in {release.date} but our diff from "
                f"{release.previous} has no change to it"
            )
        else:
            reasons.append(f"{NOT_IN_RELEASE}: {release.date} has no rule {item}")
    return "; ".join(reasons)


def quoted_where(quotes: list[str], changes: list[_Change]) -> list[dict[str, str]]:
    """Each quoted phrase with where it is found: the new wording, the old one, or neither."""
    news = " ".join(comparison_form(c.new_text) for c in changes)
    olds = " ".join(comparison_form(c.old_text) for c in changes)
    result = []
    for quote in quotes:
        form = comparison_form(quote).rstrip(".,")
        where = "new-wording" if form in news else "old-wording" if form in olds else "neither"
        result.append({"text": quote, "found_in": where})
    return result


def choose_release(
    db: Database, info: ArticleInfo, entries: list[Any], cache: dict[str, ReleaseChanges]
) -> tuple[str | None, str]:
    """The release an article accompanies, and why."""
    if info.stated_release:
        return _in_force(
            db, info.stated_release
        ), f"the article states {info.stated_release}; release in force then"
    published = date.fromisoformat(info.publish_date)
    low = (published - timedelta(days=RELEASE_WINDOW_DAYS)).isoformat()
    high = (published + timedelta(days=RELEASE_WINDOW_DAYS)).isoformat()
    candidates = [
        row[0]
        for row in db.execute(
            "SELECT date FROM releases WHERE date BETWEEN ? AND ? ORDER BY date", [low, high]
        )
    ]
    if not candidates:
        return None, f"no release within {RELEASE_WINDOW_DAYS} days of {info.publish_date}"
    scores = {}
    for candidate in candidates:
        loaded = _cached(db, cache, candidate)
        scores[candidate] = sum(bool(match_entry(e, loaded)[0]) for e in entries)
    best = max(candidates, key=lambda day: (scores[day], -abs(_days(day, info.publish_date))))
    tally = ", ".join(f"{day}: {scores[day]}" for day in candidates)
    basis = f"its entries match most changes of {best} (of {len(entries)} entries: {tally})"
    indexed = _in_force(db, info.indexed_release)
    if indexed and indexed != best:
        basis += f"; the index's {info.indexed_release} (from a file name) points to {indexed}"
    return best, basis


def _in_force(db: Database, day: str | None) -> str | None:
    if not day:
        return None
    row = db.execute("SELECT max(date) FROM releases WHERE date <= ?", [day]).fetchone()
    return row[0] if row else None


def _days(a: str, b: str) -> int:
    return (date.fromisoformat(a) - date.fromisoformat(b)).days


def store_explanations(db: Database, articles: list[tuple[ArticleInfo, Any]]) -> dict[str, Any]:
    """Store every article's entries matched to our changes, replacing what was stored.

    Redone whenever its inputs change (the articles, `EXPLANATIONS_VERSION`, the releases
    and how each was aligned): matches depend on the lineages, which a new release changes.
    """
    key = inputs_key(db, articles)
    if db.execute("SELECT key FROM explanation_state").fetchone() == (key,):
        return {**stored_counts(db), "unchanged": True}
    cache: dict[str, ReleaseChanges] = {}
    counts = {"articles": 0, "entries": 0, MATCHED: 0, "findings": 0, "links": 0}
    with db.atomic():
        db.conn.execute("DELETE FROM explanation_state")
        db.conn.execute("INSERT INTO explanation_state (key) VALUES (?)", [key])
        db.conn.execute("DELETE FROM bulletins")
        for info, bulletin in articles:
            release, basis = choose_release(db, info, bulletin.entries, cache)
            loaded = _cached(db, cache, release) if release else None
            earlier = None
            if loaded and loaded.previous:
                earlier = _cached(db, cache, loaded.previous)
            bulletin_id = db.conn.execute(
                """INSERT INTO bulletins (sha256, file, title, publish_date, set_code, set_name,
                   url, release, previous_release, release_basis, entries)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                [
                    info.sha256,
                    info.file,
                    info.title,
                    info.publish_date,
                    info.set_code,
                    info.set_name,
                    info.url,
                    release,
                    loaded.previous if loaded else None,
                    basis,
                    len(bulletin.entries),
                ],
            ).lastrowid
            counts["articles"] += 1
            for entry in bulletin.entries:
                _store_entry(db, int(bulletin_id or 0), entry, loaded, earlier, counts)
        counts["links"] = db.execute("SELECT count(*) FROM explanation_links").fetchone()[0]
    return counts


def inputs_key(db: Database, articles: list[tuple[ArticleInfo, Any]]) -> str:
    """A hash of everything the matching reads: the articles and every entry the parser read
    in them (all its fields), and how each release up to the last one they can read was
    aligned (a release after it, the next one published, changes no match)."""
    digest = hashlib.sha256(f"v{EXPLANATIONS_VERSION}".encode())
    for info, bulletin in articles:
        digest.update(f"{info.sha256} {info.file} {info.stated_release}".encode())
        for entry in bulletin.entries:
            digest.update(repr(entry).encode())  # a dataclass: every field, in order
    for row in alignment_identities(db, until=last_day_read(articles)):
        digest.update(repr(row).encode())
    return digest.hexdigest()


def last_day_read(articles: list[tuple[ArticleInfo, Any]]) -> str:
    """The last day whose release an article can be matched against (`choose_release`: the
    release in force on a stated or indexed day, or one within `RELEASE_WINDOW_DAYS` after
    it was published). A match reads that release, the one before it and their lineages,
    whose ids the releases before them decide."""
    days = [""]
    for info, _bulletin in articles:
        published = date.fromisoformat(info.publish_date)
        days.append((published + timedelta(days=RELEASE_WINDOW_DAYS)).isoformat())
        days.extend(day for day in (info.stated_release, info.indexed_release) if day)
    return max(days)


def stored_counts(db: Database) -> dict[str, int]:
    """The counts of what is stored (as `store_explanations` reports them)."""
    statuses = dict(db.execute("SELECT status, count(*) FROM explanations GROUP BY status"))
    return {
        "articles": db.execute("SELECT count(*) FROM bulletins").fetchone()[0],
        "entries": sum(statuses.values()),
        MATCHED: statuses.get(MATCHED, 0),
        "findings": sum(n for status, n in statuses.items() if status != MATCHED),
        "links": db.execute("SELECT count(*) FROM explanation_links").fetchone()[0],
    }


def _store_entry(
    db: Database,
    bulletin_id: int,
    entry: Any,
    release: ReleaseChanges | None,
    earlier: ReleaseChanges | None,
    counts: dict[str, int],
) -> None:
    matches, finding = match_entry(entry, release, earlier) if release else ([], "no release")
    called = _called_new(entry.heading, entry.explanation, matches)
    finding = "; ".join(part for part in (finding, called) if part)
    status = MATCHED if matches else "finding"
    quoted = quoted_where(entry.quoted, [change for change, _l, _h in matches])
    entry_id = db.conn.execute(
        """INSERT INTO explanations (bulletin_id, position, heading, kind, numbers, terms,
           explanation, quoted, release, status, finding) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?,
           ?, ?)""",
        [
            bulletin_id,
            entry.position,
            entry.heading,
            entry.kind,
            json.dumps(entry.numbers),
            json.dumps(entry.terms),
            entry.explanation,
            json.dumps(quoted, ensure_ascii=False),
            release.date if release else None,
            status,
            finding or None,
        ],
    ).lastrowid
    db.conn.executemany(
        """INSERT OR IGNORE INTO explanation_links (explanation_id, lineage_id, release, label,
           matched_by) VALUES (?, ?, ?, ?, ?)""",
        [(entry_id, c.lineage, c.release, label, how) for c, label, how in matches]
        if release
        else [],
    )
    counts["entries"] += 1
    counts[MATCHED if matches else "findings"] += 1


def _called_new(heading: str, explanation: str, matches: list[tuple[_Change, str, str]]) -> str:
    """The finding of an entry that calls a rule it matched new, by its heading ("106.10
    (new)") or, for an entry of one rule, by its first words ("This new rule explains..."),
    where that change continues an older clause ('' when none does): Oath of the Gatewatch's
    106.10 is new, and the Commander rule 903.9 is "no more", but a weak pairing continues
    903.9 as 106.10; Streets of New Capenna's "212.1f" is "new" where 212.1f was only
    renumbered (the new rule is 212.1d: the article's number is wrong)."""
    found = []
    said_new = len(matches) == 1 and _NEW_RULE_SAID.match(explanation) is not None
    for change, label, _how in matches:
        called = said_new or re.search(rf"(?<![\w.]){re.escape(label)}{_NEW_MARK}", heading)
        if called and change.kind not in UNNEW_KINDS:
            found.append(
                f"{CALLED_NEW}: the article calls {label} new, where the lineage continues an"
                f" older clause ({change.kind})"
            )
    return "; ".join(found)


_SELECT = """SELECT l.lineage_id, l.release, l.label, l.matched_by, x.id, x.heading, x.kind,
                    x.explanation, x.quoted, x.status, x.finding, b.title, b.set_name,
                    b.set_code, b.url, b.file, b.publish_date
             FROM explanation_links l JOIN explanations x ON x.id = l.explanation_id
             JOIN bulletins b ON b.id = x.bulletin_id"""


def _as_dict(row: tuple[Any, ...]) -> dict[str, Any]:
    keys = (
        "lineage", "release", "label", "matched_by", "id", "heading", "kind", "explanation",
        "quoted", "status", "finding", "article", "set_name", "set_code", "url", "file",
        "published",
    )  # fmt: skip
    item = dict(zip(keys, row, strict=True))
    item["quoted"] = json.loads(item["quoted"])
    return item


def explanations_between(
    db: Database, old: str, new: str, lineages: list[int] | None = None
) -> dict[int, list[dict[str, Any]]]:
    """lineage -> the explanations of its changes in the releases after `old` up to `new`."""
    if "explanation_links" not in db.table_names():
        return {}
    found: dict[int, list[dict[str, Any]]] = {}
    for row in db.execute(
        f"{_SELECT} WHERE l.release > ? AND l.release <= ? ORDER BY l.release, x.position",
        [old, new],
    ):
        if lineages is None or row[0] in lineages:
            found.setdefault(row[0], []).append(_as_dict(row))
    return found


def all_explanations(db: Database) -> list[dict[str, Any]]:
    """Every explanation attached to a change (the site reads them once per build)."""
    if "explanation_links" not in db.table_names():
        return []
    return [_as_dict(row) for row in db.execute(f"{_SELECT} ORDER BY l.release, x.position")]


def explanations_for(db: Database, lineages: list[int]) -> list[dict[str, Any]]:
    """The explanations of any change of these lineages (for `trace` and history pages)."""
    if not lineages or "explanation_links" not in db.table_names():
        return []
    marks = ", ".join("?" for _ in lineages)
    rows = db.execute(
        f"{_SELECT} WHERE l.lineage_id IN ({marks}) ORDER BY l.release, x.position", lineages
    )
    return [_as_dict(row) for row in rows]


def findings(db: Database, release: str | None = None) -> list[dict[str, Any]]:
    """Entries that matched no change, with their reason (all releases, or one)."""
    if "explanations" not in db.table_names():
        return []
    where, args = ("WHERE x.status != 'matched'", []) if release is None else (
        "WHERE x.status != 'matched' AND x.release = ?", [release])  # fmt: skip
    return list(
        db.query(
            f"""SELECT x.release, x.heading, x.kind, x.finding, x.explanation, b.title AS
                       article, b.set_name, b.url, b.file
                FROM explanations x JOIN bulletins b ON b.id = x.bulletin_id {where}
                ORDER BY x.release, x.position""",
            args,
        )
    )


def annotate_diff(db: Database, result: dict[str, Any]) -> dict[str, Any]:
    """Put each explanation beside the change it explains in a `diff_releases` result, and
    list the findings of the releases it spans."""
    by_lineage = explanations_between(db, result["old"], result["new"])
    for change in result["changes"]:
        change["explanations"] = by_lineage.get(change["lineage"], [])
    spanned = [
        row[0]
        for row in db.execute(
            "SELECT date FROM releases WHERE date > ? AND date <= ? ORDER BY date",
            [result["old"], result["new"]],
        )
    ]
    result["explanation_findings"] = [item for day in spanned for item in findings(db, day)]
    return result


def annotate_trace(db: Database, result: dict[str, Any]) -> dict[str, Any]:
    """Put each explanation beside the trace entry (lineage, release) it explains."""
    items = explanations_for(db, result["lineages"])
    for entry in result["entries"]:
        entry["explanations"] = [
            item
            for item in items
            if item["lineage"] == entry["lineage"] and item["release"] == entry["release"]
        ]
    result["explanations"] = items
    return result


def one_line(item: dict[str, Any], width: int = 220) -> str:
    """'Wizards of the Coast, "Ixalan Comprehensive Rules Changes" (Ixalan), 701.38: The new
    rules for explore.' cut to `width`."""
    text = " ".join(item["explanation"].split())
    if len(text) > width:
        text = text[: width - 1].rsplit(" ", 1)[0] + "…"
    disagrees = called_new(item)
    return f'"{item["article"]}" ({item["set_name"]}), {item["heading"]}: {text}' + (
        f" [{disagrees}]" if disagrees else ""
    )


def called_new(item: dict[str, Any]) -> str:
    """What the entry's finding says of a rule the article calls new and the lineage
    continues (`CALLED_NEW`), without its code; '' when nothing."""
    parts = (item.get("finding") or "").split("; ")
    return "; ".join(p.removeprefix(f"{CALLED_NEW}: ") for p in parts if p.startswith(CALLED_NEW))
