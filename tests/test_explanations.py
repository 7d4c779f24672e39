"""The official "Comprehensive Rules changes" articles: parsed from the vendored files,
matched to our changes, and shown beside them in `diff` and `trace`.

The known change: the Aether Revolt article (2017-01-20) says of 511.2 that a "clerical
error" came with the Kaladesh update; the 2016-09-30 release reads "trigger as the end of
combat damage step begins", the 2016-11-11 release "as the end of combat step begins". The
change is in 2016-11-11, the release before the one the article accompanies (2017-01-19).
And the Ixalan article's "701.38" is explore, added in 2017-09-25.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from click.testing import CliRunner
from sqlite_utils import Database

from archive.explanations import ReleaseChanges, findings, inputs_key, last_day_read, match_entry
from archive.manifest import CAPTURES_DIR
from archive.release_names import load_release_names, store_release_names
from archive.store import open_store
from crawler.bulletin_captures import bulletin_articles
from crawler.parsers.bulletins import parse_bulletin
from rules_history.cli import main
from rules_history.pipeline import ingest_explanations

ARTICLES = CAPTURES_DIR / "bulletins" / "articles"
# At least this many entries attached to a change (the bar); the rest are findings.
MATCHED_AT_LEAST = 300


def parsed(name: str):  # type: ignore[no-untyped-def]
    path = next(ARTICLES.glob(f"{name}*.md"))
    data = path.read_bytes()
    return parse_bulletin(data.decode("utf-8"), path.name, hashlib.sha256(data).hexdigest())


def entry(bulletin, heading: str):  # type: ignore[no-untyped-def]
    return next(e for e in bulletin.entries if e.heading == heading)


def test_bold_headings_and_a_letter_range() -> None:
    frf = parsed("2015-01-15-fate-reforged")
    assert [e.heading for e in frf.entries][:3] == ["107.3g", "205.2a", "205.3m"]
    siege = entry(frf, "614.12b–c")
    assert siege.numbers == ["614.12b", "614.12c"]
    assert siege.explanation.startswith("Hey look, it's below. The Sieges are a cycle")
    assert "[Karn Liberated]" not in frf.entries[0].explanation  # links become their text


def test_a_heading_with_a_remark_after_it_or_a_number_alone_is_a_heading() -> None:
    """Four headings went unread, so the explanation below each was glued to the entry
    before: BFZ's "**702.112** (112! Yikes!)" and "**702.114** (...)" (the changeling rule
    removed said "The new rules for awaken"), ELD's bare "800.5" and KHM's "111.10e  " (the
    Walker token carried the Shard's explanation)."""
    bfz = parsed("2015-10-09-battle-for-zendikar")
    assert entry(bfz, "702.72b").explanation.endswith("the rule describing this case was deleted.")
    assert entry(bfz, "702.112").explanation == "The new rules for awaken."
    assert entry(bfz, "702.114").explanation == "The new rule for ingest."
    eld = parsed("2019-09-27-throne-of-eldraine")
    assert entry(eld, "800.5").explanation.startswith("Here's where we define how seating order")
    assert "seating order" not in entry(eld, "800.4h").explanation
    khm = parsed("2021-02-02-kaldheim")
    assert "Shards" in entry(khm, "111.10e").explanation
    assert "Shard" not in entry(khm, "111.10d").explanation


def test_a_bold_glossary_lead_with_its_list_on_the_line_is_a_glossary_entry() -> None:
    """Fate Reforged's "**New glossary terms:** anchor word, bolster, dash, manifest" was read
    as the end of 904.1's explanation (the Archenemy rule "explained" by the list)."""
    frf = parsed("2015-01-15-fate-reforged")
    assert entry(frf, "904.1").explanation.endswith("I won't spoil it.")
    glossary = entry(frf, "New glossary terms")
    assert glossary.kind == "glossary"
    assert glossary.terms == ["anchor word", "bolster", "dash", "manifest"]


def test_atx_headings_with_several_numbers_and_a_glossary_sentence() -> None:
    xln = parsed("2017-09-28-ixalan")
    first = xln.entries[0]
    assert first.numbers == ["104.2a", "304.5", "307.5", "603.2a", "701.13c", "702.7c", "810.8a"]
    assert entry(xln, "701.38").explanation.startswith("I cut down some brush")
    assert entry(xln, "Glossary").terms == ["Explore"]


def test_setext_headings_subrules_and_a_bulleted_glossary() -> None:
    unf = parsed("2022-10-18-unfinity")
    stickers = entry(unf, "123 (and its subrules)")
    assert stickers.numbers == ["123"] and stickers.subrules
    assert entry(unf, "702.33h").explanation.startswith("This kicker subrule explains")
    glossary = entry(unf, "New Glossary Entries")
    assert glossary.terms[:3] == ["Attraction", "Attraction Deck", "Prize"]
    assert len(glossary.terms) == 12


def test_revised_glossary_entries_written_as_sentences_name_their_terms() -> None:
    # "Specific rule references were added to Encore and Search entries." and "Learn entry
    # updated ..." name their terms before the word "entry"; "Goad: Now references Goaded."
    # names it before the colon (they were read as "Search entries" and "Goad:", and the
    # other three were too long to be terms).
    mh2 = entry(parsed("2021-06-18-modern-horizons-2"), "Revised Glossary Entries")
    assert mh2.terms == ["Encore", "Search", "Learn"]
    afr = entry(parsed("2021-07-15-adventures-in-the-forgotten"), "Revised Glossary Entries")
    assert afr.terms == ["Goad", "Level Up", "Nontraditional Magic Card", "Traditional Magic Card"]


def test_an_entry_read_anew_by_the_parser_is_matched_again(explained) -> None:  # type: ignore[no-untyped-def]
    db, _path, _counts = explained
    articles, _failed = bulletin_articles(CAPTURES_DIR)
    before = inputs_key(db, articles)
    glossary = next(e for _info, b in articles for e in b.entries if e.kind == "glossary")
    glossary.terms = [*glossary.terms[:-1], f"{glossary.terms[-1]} entries"]  # as read before
    assert inputs_key(db, articles) != before


def test_a_topic_that_only_lists_names_has_them_as_its_terms() -> None:
    stx = parsed("2021-04-20-strixhaven")
    creature = entry(stx, "Creature")  # "Fractal and Inkling": new creature types
    assert (creature.terms, creature.names_listed) == (["Fractal", "Inkling"], True)
    neo = parsed("2022-02-09-kamigawa-neon-dynasty")
    sentence = entry(neo, "New Subtypes")  # "Kaito was added to the list of ..."
    assert (sentence.terms, sentence.names_listed) == (["New Subtypes"], False)


def test_the_magic_2010_article_is_topics() -> None:
    m10 = parsed("2009-06-10-magic-2010")
    headings = [e.heading for e in m10.entries]
    assert "6) Deathtouch" in headings and "2A) Battlefield" in headings
    assert all(e.kind == "topic" for e in m10.entries)
    assert entry(m10, "6) Deathtouch").terms == ["Deathtouch"]
    # a heading that lists terms names each of them
    assert entry(m10, "2B) Cast, Play, and Activate").terms == ["Cast", "Play", "Activate"]
    # a table of pictures whose cells the markdown lost is no paragraph of the explanation
    battlefield = entry(m10, "2A) Battlefield").explanation.split("\n\n")
    assert battlefield[1].startswith("The Fix:") and battlefield[2].startswith("The Details:")


def test_every_vendored_article_is_its_bytes() -> None:
    articles, failed = bulletin_articles(CAPTURES_DIR)
    assert not failed and len(articles) == 34
    assert sum(len(bulletin.entries) for _info, bulletin in articles) > 600


@pytest.fixture(scope="module")
def explained(full_lineage: Database) -> tuple[Database, str, dict]:  # type: ignore[type-arg]
    store_release_names(full_lineage)
    counts = ingest_explanations(full_lineage, CAPTURES_DIR)
    path = str(full_lineage.conn.execute("PRAGMA database_list").fetchone()[2])
    return full_lineage, path, counts


def test_the_counts(explained) -> None:  # type: ignore[no-untyped-def]
    db, _path, counts = explained
    assert counts["articles"] == 34 and not counts["failed"]
    assert counts["matched"] >= MATCHED_AT_LEAST
    assert counts["matched"] + counts["findings"] == counts["entries"]
    stored = db.execute("SELECT count(*) FROM explanations WHERE status = 'matched'")
    assert stored.fetchone()[0] == counts["matched"]
    linked = db.execute("SELECT count(DISTINCT explanation_id) FROM explanation_links")
    assert linked.fetchone()[0] == counts["matched"]
    listed = findings(db)
    assert len(listed) == counts["findings"] and all(row["finding"] for row in listed)


def test_each_article_is_named_from_the_captures_folder(explained) -> None:  # type: ignore[no-untyped-def]
    db, path, _counts = explained
    files = [row[0] for row in db.execute("SELECT file FROM bulletins")]
    assert len(files) == 34
    assert all(f.startswith("bulletins/articles/") and (CAPTURES_DIR / f).is_file() for f in files)
    args = ["diff", "2016-09-30", "2016-11-11", "--rule", "511.2", "--db", path, "--json"]
    (change,) = json.loads(CliRunner().invoke(main, args).stdout)["changes"]
    assert change["explanations"][0]["file"] == (
        "bulletins/articles/2017-01-20-aether-revolt-update-bulletin-comprehensive-rules-changes.md"
    )


def test_an_entry_that_says_its_rule_is_new_where_the_lineage_continues_says_so(explained) -> None:  # type: ignore[no-untyped-def]
    """Streets of New Capenna's "212.1f: This new rule explains that the indicator..." sat on
    212.1e -> 212.1f, a bare renumbering (the new rule is 212.1d: the article's number is
    wrong), and Dragons of Tarkir's megamorph rule on 702.36d -> 702.36e, with no word of
    it. An entry whose words call its one rule new now says where the lineage disagrees."""
    db, _path, _counts = explained
    said = dict(
        db.execute("SELECT heading, finding FROM explanations WHERE finding LIKE 'called-new%'")
    )
    assert said["212.1f"].endswith("continues an older clause (renumbered)")
    assert said["702.36e"].endswith("(renumbered+reworded)")
    added = db.execute("SELECT finding FROM explanations WHERE heading = '107.3g'").fetchone()
    assert added == (None,)  # "This new rule clarifies...": 107.3g is new there


def test_a_draft_number_is_a_finding(explained) -> None:  # type: ignore[no-untyped-def]
    db, _path, _counts = explained
    neo = {row["heading"]: row["finding"] for row in findings(db, "2022-02-18")}
    assert neo["701.22d"].startswith("not-in-release: 2022-02-18 has no rule 701.22d")


def test_each_revised_glossary_term_is_matched_or_named_in_a_finding(explained) -> None:  # type: ignore[no-untyped-def]
    db, _path, _counts = explained
    rows = db.execute(
        """SELECT release, status, finding FROM explanations
           WHERE heading = 'Revised Glossary Entries' AND release IN ('2021-06-09', '2021-07-12')
           ORDER BY release"""
    ).fetchall()
    # 2021-06-09 added a reference to Encore and changed Learn; its Search entry reads as it
    # did in 2021-04-19, whatever the article says, and the finding names it alone.
    assert rows == [
        (
            "2021-06-09",
            "matched",
            "term-not-found: no change in 2021-06-09 to a glossary entry or rule named 'Search'",
        ),
        ("2021-07-12", "matched", None),
    ]


def test_new_subrules_carried_by_the_release_before_match_there(explained) -> None:  # type: ignore[no-untyped-def]
    db, path, _counts = explained
    # Throne of Eldraine's article (released with 2019-10-04): "The rules for goad gain two
    # new subrules!" Goad itself, 701.37, did not change; 701.37b and c came in 2019-08-23.
    rows = db.execute(
        """SELECT e.status, l.release, m.number, l.matched_by FROM explanations e
           JOIN bulletins b ON b.id = e.bulletin_id
           JOIN explanation_links l ON l.explanation_id = e.id
           JOIN lineage_members m ON m.lineage_id = l.lineage_id AND m.release = l.release
           WHERE b.release = '2019-10-04' AND e.heading = '701.37' ORDER BY m.number"""
    ).fetchall()
    assert rows == [
        ("matched", "2019-08-23", "701.37b", "subrule-earlier"),
        ("matched", "2019-08-23", "701.37c", "subrule-earlier"),
    ]
    data = json.loads(
        CliRunner()
        .invoke(
            main, ["diff", "2019-06-12", "2019-10-04", "--rule", "701.37b", "--db", path, "--json"]
        )
        .stdout
    )
    (change,) = data["changes"]
    assert [x["matched_by"] for x in change["explanations"]] == ["subrule-earlier"]


def test_a_topic_heading_that_lists_terms_matches_each(explained) -> None:  # type: ignore[no-untyped-def]
    db, _path, _counts = explained
    linked = db.execute(
        """SELECT e.status, e.finding, ev.new_numbers FROM explanations e
           JOIN explanation_links l ON l.explanation_id = e.id
           JOIN lineage_events ev ON ev.lineage_id = l.lineage_id AND ev.release = l.release
           WHERE e.heading = '2B) Cast, Play, and Activate' ORDER BY ev.new_numbers"""
    ).fetchall()
    # Magic 2010's new words: each glossary entry and each keyword action of that name
    assert [numbers for _status, _finding, numbers in linked] == [
        '["701.10"]',
        '["701.2"]',
        '["701.4"]',
        '["Activate"]',
        '["Cast"]',
        '["Play"]',
    ]
    assert {(status, finding) for status, finding, _numbers in linked} == {("matched", None)}


def test_listed_names_match_the_rules_that_added_them(explained) -> None:  # type: ignore[no-untyped-def]
    db, _path, _counts = explained
    linked = db.execute(
        """SELECT e.release, e.heading, m.number FROM explanations e
           JOIN explanation_links l ON l.explanation_id = e.id
           JOIN lineage_members m ON m.lineage_id = l.lineage_id AND m.release = l.release
           WHERE e.kind = 'topic' AND e.status = 'matched' AND l.matched_by = 'name-added'
             AND e.release IN ('2021-07-12', '2022-06-10') ORDER BY 1, 3"""
    ).fetchall()
    assert ("2021-07-12", "Creature", "205.3m") in linked  # Bard ... Tiefling
    assert ("2021-07-12", "Planeswalker", "205.3j") in linked  # Bahamut ... Zariel
    assert ("2022-06-10", "Planeswalker Types", "205.3j") in linked  # Elminster, Minsc, Tasha
    # The same list read against a release that did not add them: each name is a finding.
    afr = entry(parsed("2021-07-15-adventures-in-the-forgotten"), "Planeswalker")
    matched, finding = match_entry(afr, ReleaseChanges.load(db, "2021-06-09"))
    assert not matched
    assert finding.split("; ")[0] == (
        "term-not-found: no change in 2021-06-09 adds the name 'Bahamut'"
    )
    assert finding.count("term-not-found") == 5


def test_articles_without_a_stated_release_land_where_the_names_table_says(explained) -> None:  # type: ignore[no-untyped-def]
    db, _path, _counts = explained
    rows = load_release_names()
    for set_code, release, basis in db.execute(
        "SELECT set_code, release, release_basis FROM bulletins WHERE release IS NOT NULL"
    ):
        assert rows[release].set_code == set_code, (set_code, release, basis)


def test_diff_names_the_explanation_of_a_known_change(explained) -> None:  # type: ignore[no-untyped-def]
    _db, path, _counts = explained
    args = ["diff", "2016-09-30", "2016-11-11", "--rule", "511.2", "--db", path]
    text = CliRunner().invoke(main, args).stdout
    assert "end of combat [-damage -]step begins" in text
    assert 'explained: "Aether Revolt Update Bulletin—Comprehensive Rules Changes"' in text
    assert "clerical error" in text
    data = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)
    (change,) = data["changes"]
    (item,) = change["explanations"]
    assert item["heading"] == "511.2" and item["matched_by"] == "number-earlier"
    assert item["set_code"] == "AER"


def test_trace_shows_the_explanation_beside_the_change(explained) -> None:  # type: ignore[no-untyped-def]
    _db, path, _counts = explained
    text = CliRunner().invoke(main, ["trace", "701.38@XLN", "--db", path]).stdout
    lines = text.splitlines()
    added = next(i for i, line in enumerate(lines) if "added" in line and "701.38" in line)
    assert "explained:" in lines[added + 2] and "rules for explore" in lines[added + 2]
    data = json.loads(
        CliRunner().invoke(main, ["trace", "701.38@XLN", "--db", path, "--json"]).stdout
    )
    first = data["entries"][0]
    assert first["release"] == "2017-09-25" and first["explanations"][0]["heading"] == "701.38"


def test_a_second_ingest_skips_the_matching(explained) -> None:  # type: ignore[no-untyped-def]
    db, _path, counts = explained
    again = ingest_explanations(db, CAPTURES_DIR)
    assert again.get("unchanged") is True
    assert {k: again[k] for k in ("entries", "matched", "findings")} == {
        k: counts[k] for k in ("entries", "matched", "findings")
    }


def test_only_a_release_an_article_can_read_redoes_the_matching(explained, tmp_path) -> None:  # type: ignore[no-untyped-def]
    db, _path, _counts = explained
    db.conn.backup(Database(tmp_path / "copy.db").conn)
    copy = open_store(tmp_path / "copy.db")  # as the pipeline opens it (foreign keys on)
    articles, _failed = bulletin_articles(CAPTURES_DIR)
    last = last_day_read(articles)
    newest, older = copy.execute(
        "SELECT max(release), max(release) FILTER (WHERE release <= ?) FROM lineage_alignments",
        [last],
    ).fetchone()
    assert older < last < newest  # the archive goes on after the last article's release
    realign = "UPDATE lineage_alignments SET version = version + 1 WHERE release = ?"
    with copy.conn:
        copy.execute(realign, [newest])  # as a new release, or one aligned again, would
    assert ingest_explanations(copy, CAPTURES_DIR).get("unchanged") is True
    with copy.conn:
        copy.execute(realign, [older])
    redone = ingest_explanations(copy, CAPTURES_DIR)
    assert "unchanged" not in redone and redone["entries"] == _counts["entries"]


def _linked(db: Database, release: str, heading: str) -> list[tuple[str, str, str]]:
    """(kind, numbers before, numbers after) of each change an entry of `release`'s article
    is attached to."""
    rows = db.execute(
        """SELECT e.kind, e.old_numbers, e.new_numbers FROM explanations x
           JOIN explanation_links l ON l.explanation_id = x.id
           JOIN lineage_events e ON e.lineage_id = l.lineage_id AND e.release = l.release
           WHERE x.release = ? AND x.heading = ? ORDER BY e.new_numbers, e.old_numbers""",
        [release, heading],
    )
    return [(kind, old, new) for kind, old, new in rows]


def test_a_listed_number_means_the_rule_whose_words_changed(explained) -> None:  # type: ignore[no-untyped-def]
    db, _path, _counts = explained
    # Ixalan added 702.36f (X in a morph cost); the old 702.36f moved to 702.36g word for word.
    assert _linked(db, "2017-09-25", "702.36f") == [("added", "[]", '["702.36f"]')]
    # Magic Origins deleted 107.13 and 107.14; 107.15 and 107.16 moved up into their numbers.
    assert _linked(db, "2015-07-17", "107.13 and 107.14") == [
        ("removed", '["107.13"]', "[]"),
        ("removed", '["107.14"]', "[]"),
    ]


def test_an_entry_telling_what_a_rule_said_means_the_rule_that_had_the_number(explained) -> None:  # type: ignore[no-untyped-def]
    """Fate Reforged's article numbers two entries as Khans of Tarkir did: "711.6: This rule
    stated that double-faced cards could never be face down" is the old 711.6, now 711.9 (not
    711.4, which moved onto 711.6), and "711.9: This rule previously explained how to exile
    a checklist face down" the old 711.9, now 711.3. A number an entry speaks of in the
    present stays the rule that has it now (the tests above)."""
    db, _path, _counts = explained
    assert _linked(db, "2015-01-23", "711.6") == [("renumbered+reworded", '["711.6"]', '["711.9"]')]
    assert _linked(db, "2015-01-23", "711.9") == [("renumbered", '["711.9"]', '["711.3"]')]


def test_a_misnumbered_entry_means_the_rule_that_says_what_it_quotes(explained) -> None:  # type: ignore[no-untyped-def]
    """Dominaria's article: "700.7: This rule defines "historic."" In the release, 700.6 (new)
    defines historic and 700.7 is the rule on sets, moved down from 700.6 word for word: the
    entry was attached to the move, and the new rule had no explanation."""
    db, _path, _counts = explained
    assert _linked(db, "2018-04-27", "700.7") == [("added", "[]", '["700.6"]')]
    (how,) = db.execute(
        """SELECT l.matched_by FROM explanations x JOIN explanation_links l
           ON l.explanation_id = x.id WHERE x.release = '2018-04-27' AND x.heading = '700.7'"""
    ).fetchone()
    assert how == "quoted"


def test_a_range_of_rules_lists_each(explained) -> None:  # type: ignore[no-untyped-def]
    db, _path, _counts = explained
    # Battle for Baldur's Gate reordered the coin-flip rules: "705.1–2".
    labels = db.execute(
        """SELECT l.label, e.new_numbers FROM explanations x
           JOIN explanation_links l ON l.explanation_id = x.id
           JOIN lineage_events e ON e.lineage_id = l.lineage_id AND e.release = l.release
           WHERE x.release = '2022-06-10' AND x.heading = '705.1–2' ORDER BY l.label"""
    ).fetchall()
    assert labels == [("705.1", '["705.1"]'), ("705.2", '["705.2"]')]
