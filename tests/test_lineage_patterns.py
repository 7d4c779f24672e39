"""The nine failure patterns of issue 10, each on the capture where it was seen.

Each test aligns the two real releases (or reads the lineages built from every capture) and
checks the decision a reader of both texts makes.
"""

from __future__ import annotations

import json

import pytest
from sqlite_utils import Database

from lineage.align import _similarity, align
from lineage.alignment import CERTAIN_METHODS, LEFTOVER, WEAK, WORDS_ALONE, Alignment
from lineage.blame import blame
from lineage.clause import Clause
from lineage.compare import diff_releases
from lineage.moved_sentences import sentences
from lineage.store import load_clauses
from lineage.words import WordCodes


class Aligned:
    """Two releases of the full store aligned, read by label."""

    def __init__(self, db: Database, old: str, new: str) -> None:
        self.old, self.new = load_clauses(db, old), load_clauses(db, new)
        self.result: Alignment = align(self.old, self.new)
        self.new_index = {clause.label: n for n, clause in enumerate(self.new)}
        self.old_index = {clause.label: o for o, clause in enumerate(self.old)}
        self.successor = {
            self.old[o].label: self.new[n].label for n, o in self.result.matches.items()
        }

    def kind(self, new_label: str) -> str:
        return self.result.kinds[self.new_index[new_label]]

    def ending(self, old_label: str) -> str | None:
        return self.result.removed.get(self.old_index[old_label])

    def pieces(self, old_label: str) -> list[str]:
        """The new clauses split off the old one (besides its successor), by label."""
        found = self.result.splits.get(self.old_index[old_label], [])
        return [self.new[n].label for n in found]

    def absorbed(self, new_label: str) -> list[str]:
        """The old clauses merged into the new one (besides its predecessor), by label."""
        found = self.result.merges.get(self.new_index[new_label], [])
        return [self.old[o].label for o in found]


@pytest.fixture(scope="module")
def rewrite_2009(full_store: Database) -> Aligned:
    return Aligned(full_store, "2009-05-01", "2009-07-08")


def test_1_headings_change_level_when_title_and_children_say_so(rewrite_2009: Aligned) -> None:
    """2009: rule heading 212.2 "Artifacts" became section 301, rule heading 418.5 became
    section 612, section 217 "Zones" became chapter 4."""
    assert rewrite_2009.successor["212.2"] == "301"
    assert rewrite_2009.successor["418.5"] == "612"
    assert rewrite_2009.successor["217"] == "4"
    assert rewrite_2009.kind("301") == rewrite_2009.kind("4") == "renumbered"


def test_2_a_bare_heading_is_not_paired_with_content(rewrite_2009: Aligned) -> None:
    """2009: 212.1 "General" was paired with 204.1 (the type line) at similarity 0, which
    left 205.1, 204.1's real predecessor, removed."""
    assert rewrite_2009.successor["212.1"] == "300"  # Card Types: General
    assert rewrite_2009.successor["205.1"] == "204.1"
    assert rewrite_2009.ending("205.1") is None
    result = rewrite_2009.result
    for n, o in result.matches.items():  # what children decide is always heading to heading
        if result.method[n] == "children":
            assert rewrite_2009.old[o].heading and rewrite_2009.new[n].heading


def test_3_a_glossary_entry_is_no_gap_filler_for_a_term_it_shares_nothing_with(
    rewrite_2009: Aligned,
) -> None:
    """2009: the entry "In Play" came after "Illegal Target", and so did the new entry "In
    Response To": alphabetical order put them in the same gap, at a similarity of 24. The
    glossary's order says how a term is spelled, not what it means; "In Play" is now
    "Battlefield" (its term in the new vocabulary)."""
    assert rewrite_2009.successor["In Play"] == "Battlefield"
    assert "In Response To" not in rewrite_2009.successor.values()


def test_3_a_rule_written_for_another_keyword_does_not_continue(rewrite_2009: Aligned) -> None:
    """2009: "Multiple instances of intimidate on the same creature are redundant." (702.11c,
    a new keyword) reads like banding's and bands with other's rules, differing only by the
    keyword. Both went to banding's 702.19m, which says the two sentences; 702.11c is new."""
    assert rewrite_2009.kind("702.11c") == "added"
    assert rewrite_2009.successor["502.10i"] == "702.19m"
    assert rewrite_2009.absorbed("702.19m") == ["502.11d"]


def test_3_a_renamed_heading_keeps_its_rules(full_store: Database) -> None:
    """2011-02-04: EDH became Commander: the rules name the new title, and follow the
    section, which kept its number; 2007-05-01: Scry's 502.36b is not Gravestorm's
    502.67b, though only the keyword differs."""
    assert Aligned(full_store, "2010-10-01", "2011-02-04").successor["903.1"] == "903.1"
    scry = Aligned(full_store, "2007-02-01", "2007-05-01")
    assert scry.successor.get("502.36b") != "502.67b"
    assert scry.kind("502.67b") == "added"


def test_3_a_strong_distant_match_beats_a_weak_one_nearby(rewrite_2009: Aligned) -> None:
    """2009: 203.1b (no mana symbols: an unpayable cost) went to 116.6, far away; gap
    filling paired it with 202.1b at 24 before the far match was looked for."""
    assert rewrite_2009.successor["203.1b"] == "116.6"
    assert rewrite_2009.successor.get("203.1b") != "202.1b"


def test_3_a_piece_of_a_neighbour_is_no_weak_leftover_pair(full_store: Database) -> None:
    """2017-04-28: "A player chooses which half of a split card he or she is casting" (708.3)
    is the first sentence of 708.2a, whose rest became 708.3a. Pairing what nothing claimed
    gave it the old 708.3 (multicolored split cards, half its words) at 45; it is 708.2a's
    statement, so 708.2a continues there and 708.3a is split off. The old 708.3 ends."""
    split_cards = Aligned(full_store, "2017-01-19", "2017-04-28")
    assert split_cards.successor["708.2a"] == "708.3"
    assert split_cards.pieces("708.2a") == ["708.3a"]
    assert split_cards.ending("708.3") == "removed"


def test_3_a_weak_leftover_pair_leaves_a_piece_to_its_source(rewrite_2009: Aligned) -> None:
    """2009: 605.1b (when a triggered ability is a mana ability) is part (b) of 406.1, which
    continues as 605.1a; 406.2 (spells are no mana abilities) is 605.5b, not 605.1b."""
    assert rewrite_2009.successor["406.2"] == "605.5b"
    assert "605.1b" in rewrite_2009.pieces("406.1")


def test_3_a_clause_alone_between_two_pairs_continues_the_one_it_reads_like(
    full_store: Database,
) -> None:
    """2016-09-30: the main phase lost its step for triggers. The old 505.4 ("Second, any
    abilities that trigger at the beginning of the main phase go on the stack") was dropped,
    and 505.5 ("Third, the active player gets priority...") became 505.4 ("Second, the
    active player gets priority"), its subrules 505.5a-b now 505.4a-b. Gap filling offered the
    new 505.4 only the first old clause of its gap, the old 505.4 (similarity 24, against 38
    for 505.5), and paired them."""
    kaladesh = Aligned(full_store, "2016-08-26", "2016-09-30")
    assert kaladesh.successor["505.5"] == "505.4"
    assert kaladesh.successor["505.5a"] == "505.4a"
    assert kaladesh.ending("505.4") == "removed"
    assert kaladesh.kind("505.4") == "renumbered+reworded"


def test_3_a_rule_rewritten_in_its_place_keeps_its_examples(full_store: Database) -> None:
    """A rule whose words were all rewritten, in its place, under the examples it had: the
    same rule (2001-07-23: 419.8b, "Two or more replacement effects can interact without
    contradicting one another." -> "A replacement effect can become applicable ...", the
    same example of gaining life; 2003-07-01: 500.5 on blocking requirements). A rule that
    reused another's scenario, rewritten, is a new rule: 713.3's fragmented loop (2009)
    tells the flying loop of the removed 421.3 anew."""
    apocalypse = Aligned(full_store, "1999-11-01", "2001-07-23")
    assert apocalypse.successor["419.8b"] == "419.8b"
    assert apocalypse.kind("419.8b") == "reworded"
    legions = Aligned(full_store, "2003-03-15", "2003-07-01")
    assert legions.successor["500.5"] == "500.5"
    assert legions.kind("500.5") == "reworded"


def test_3_examples_rewritten_around_a_new_rule_are_no_evidence(rewrite_2009: Aligned) -> None:
    assert rewrite_2009.ending("421.3") == "removed"
    assert rewrite_2009.kind("713.3") == "added"


def clause(number: str, text: str, position: int, parent: str) -> Clause:
    return Clause(position, "subrule", number, parent, None, text, text, position)


def test_4_the_2009_vocabulary_costs_no_similarity() -> None:
    codes = WordCodes()
    before = clause(
        "212.2a", "A player may play an artifact card from his or hand. It comes into play.", 0, ""
    )
    after = clause(
        "301.1",
        "A player may cast an artifact card from his or hand. It enters the battlefield.",
        0,
        "",
    )
    removed = clause("406.1", "Remove target creature from the game if it is in play.", 0, "")
    exiled = clause("406.1", "Exile target creature if it is on the battlefield.", 0, "")
    assert _similarity(before, after, codes) == 100.0
    assert _similarity(removed, exiled, codes) == 100.0
    zone = clause("217.5b", "Permanents exist only in the in-play zone.", 0, "")
    battlefield = clause("403.3", "Permanents exist only on the battlefield.", 0, "")
    exile_zone = clause("217.7", "Cards in the removed-from-the-game zone.", 0, "")
    now_exile = clause("406.1", "Cards in the exile zone.", 0, "")
    assert _similarity(zone, battlefield, codes) == 100.0
    assert _similarity(exile_zone, now_exile, codes) == 100.0


def test_4_the_in_play_zone_is_the_battlefield(rewrite_2009: Aligned) -> None:
    """2009: 217.5c "... the in-play zone ..." continues as 403.4 by its words, and 217.5d
    ("An object not in the in-play zone isn't "in play" ...", now 109.4 by meaning) is not
    taken by 403.5, the new note that the battlefield was once the in-play zone: while
    "the in-play zone" read as other words than "the battlefield", the gap between 403.4
    and 403.5 paired them by place."""
    assert rewrite_2009.successor["217.5c"] == "403.4"
    assert rewrite_2009.result.method[rewrite_2009.new_index["403.4"]] == "similar"
    assert rewrite_2009.kind("403.5") == "added"


def test_4_a_clause_one_level_deeper_keeps_its_predecessor(rewrite_2009: Aligned) -> None:
    """2009: 212.2a (under rule heading 212.2 "Artifacts") is rule 301.1 (under section 301):
    "play" became "cast"; 212.2d, where "in play" became "on the battlefield", too."""
    assert rewrite_2009.successor["212.2a"] == "301.1"
    assert rewrite_2009.kind("301.1") == "renumbered+reworded"
    assert rewrite_2009.successor["212.2d"] == "301.4"


def test_4_a_rule_under_a_rewritten_parent_stays_under_its_number(full_store: Database) -> None:
    """2022-06-10 rewrote 608.3 (a permanent spell's resolution) as steps: the old 608.3a,
    on Aura spells, is 608.3c, "If the object that's resolving is an Aura spell, it becomes
    a permanent ... attached to the player or object it was targeting". Both sit under
    608.3, paired with neither side yet; the old 608.3 itself, one level above, had the
    place for that alone and took 608.3c."""
    aligned = Aligned(full_store, "2022-04-29", "2022-06-10")
    assert aligned.successor["608.3a"] == "608.3c"
    assert aligned.kind("608.3c") == "renumbered+reworded"
    assert aligned.successor.get("608.3") != "608.3c"


def test_5_a_split_keeps_its_identity_on_the_first_sentence(full_store: Database) -> None:
    """2007-05-01: 104.1 "The Magic game uses only natural numbers. You can't choose a
    fractional number ..." became 104.1 "... uses only integers." and 104.1a "You can't
    choose a fractional number ..." (the longer piece, which whole-text ratio preferred)."""
    aligned = Aligned(full_store, "2007-02-01", "2007-05-01")
    assert aligned.successor["104.1"] == "104.1"
    assert aligned.kind("104.1a") == "split"
    assert aligned.pieces("104.1") == ["104.1a"]


def test_5_a_split_keeps_its_identity_on_the_piece_that_reads_like_its_opening(
    full_store: Database,
) -> None:
    """2009-10-05: 117.1 "Each player begins the game with a life total of 20. In a
    Two-Headed Giant game, each team begins the game with a shared life total of 30 ..."
    became 117.1 (the first sentence, word for word) and 117.1a (the second, which shares
    most of the first's words and is longer). 306.7, a planeswalker's abilities once a turn,
    continues as 606.3, which says it again of loyalty abilities; 306.5d only quotes it
    after a sentence of its own."""
    aligned = Aligned(full_store, "2009-09-04", "2009-10-05")
    assert aligned.successor["117.1"] == "117.1"
    assert aligned.pieces("117.1") == ["117.1a"]
    assert aligned.successor["306.7"] == "606.3"


def test_5_a_split_whose_opening_no_piece_kept_continues_in_its_next_statement(
    rewrite_2009: Aligned,
) -> None:
    """2009: 308.1 opened with "As the declare attackers step begins, the active player
    declares attackers.", which 308.2 said too and 508.1 (its successor) says; the rest went
    to 508.1b (which player or planeswalker each creature attacks), 508.4 (effects that
    refer to a defending player), 508.2 (triggers) and 508.3 (priority). The identity goes
    with the earliest statement a piece holds, not the piece most like the whole text."""
    assert rewrite_2009.successor["308.1"] == "508.1b"
    assert rewrite_2009.pieces("308.1") == ["508.2", "508.3", "508.4"]
    assert rewrite_2009.successor["308.2"] == "508.1"


def test_5_a_merge_keeps_its_identity_on_the_clause_that_reads_like_its_opening(
    rewrite_2009: Aligned,
) -> None:
    """2009: 202.1b "Some objects have no mana cost. This normally includes all land cards,
    ... and tokens (unless the effect that creates them specifies otherwise)." took in
    203.1c "Lands normally have no mana cost." and 203.1d on tokens. The tokens sentence is
    quoted nearly whole, but the opening is the lands rule's."""
    assert rewrite_2009.successor["203.1c"] == "202.1b"
    assert rewrite_2009.absorbed("202.1b") == ["203.1d"]


def test_5_an_old_rule_said_again_where_its_rule_let_it_go_is_merged_there(
    full_store: Database,
) -> None:
    """2023-04-14: meld cards became double-faced cards and their section went; its
    face-down rule 713.10 is said again by 712.15 (which continues 712.11), word for word
    but "double-faced card". 2018-04-27: the Two-Headed Giant's combat rule 810.7 became
    "see rule 805.10", and its 810.7a was 805.10a word for word. 2006-10-01: bushido's
    502.38b was written on rampage's 502.12b, but its own rule stayed and names no rampage
    rule: it is gone, no part of rampage's."""
    melded = Aligned(full_store, "2022-11-18", "2023-04-14")
    assert melded.absorbed("712.15") == ["713.10"]
    assert melded.successor["712.11"] == "712.15"
    shared = Aligned(full_store, "2018-01-19", "2018-04-27")
    assert shared.absorbed("805.10a") == ["810.7a"]
    templated = Aligned(full_store, "2006-07-15", "2006-10-01")
    assert templated.ending("502.38b") == "removed"


def test_5_template_clauses_are_no_split_pieces(rewrite_2009: Aligned) -> None:
    """A new keyword's "multiple instances ... each triggers separately" looks like every
    other one; it is not a piece of the neighbour, which kept all its words."""
    result, new = rewrite_2009.result, rewrite_2009.new
    for source, pieces in result.splits.items():
        continued = next(n for n, o in result.matches.items() if o == source)
        if rewrite_2009.old[source].normalised == new[continued].normalised:
            pytest.fail(f"{rewrite_2009.old[source].label} kept all its words but split")
        for piece in pieces:  # (or found by a sentence a glossary entry gave it)
            assert result.evidence_new(piece)[0] in ("split-off", "entry-sentence")


def test_5_a_short_absorbed_clause_is_a_merge(rewrite_2009: Aligned) -> None:
    """2009: 502.10c, the short "Morph" reminder of the echo-like cost, went into 702.19c."""
    absorbed = rewrite_2009.absorbed("702.19c")
    assert "502.10c" in absorbed or rewrite_2009.successor.get("502.10c") == "702.19c"


def test_5_a_glossary_entry_gives_its_rule_text_to_the_rules(rewrite_2009: Aligned) -> None:
    """2009: the entry "Exchange" became a short definition; its paragraphs became the rules
    701.8a-f, far from it. The pieces are found by the words the entry lost, and the
    entry keeps its identity (its term continues), not the rule that took its first words."""
    assert rewrite_2009.successor["Exchange"] == "Exchange"
    assert rewrite_2009.pieces("Exchange") == [f"701.8{c}" for c in "abcdef"]
    assert rewrite_2009.kind("701.8c") == "split"


def test_5_a_passage_kept_in_order_is_a_piece_of_its_entry(rewrite_2009: Aligned) -> None:
    """2009: the entries "Unless" and "Ability Word" became short definitions; their old text,
    reworded a little, is now 116.12a and 206.2c. Some of the piece's words stayed in the
    entry's new definition, so fewer of them are among the words it lost, but they are in the
    entry's order. A rule that only shares an entry's vocabulary ("X" and 602.2a, both about
    costs) holds no passage of it and is no piece."""
    assert rewrite_2009.pieces("Unless") == ["116.12a"]
    assert rewrite_2009.pieces("Ability Word") == ["206.2c"]
    assert rewrite_2009.successor["Unless"] == "Unless"
    assert "602.2a" not in rewrite_2009.pieces("X")


def test_5_a_rule_an_entry_now_cites_holds_the_passage_it_lost(full_store: Database) -> None:
    """2009: the entry "Unblockable" became "An attribute of a creature that precludes it from
    being blocked. See rule 700.5."; its old text is 700.5, in order. The entry lost only ten
    words, too few for a passage found far away, but it now cites the rule that holds them.
    2003: the rules 104.1-104.4 say what the entry "Number" still says: a copy, not a move
    (the entry lost nothing), so they are new."""
    rewrite = Aligned(full_store, "2009-05-01", "2009-07-08")
    assert rewrite.pieces("Unblockable") == ["700.5"]
    assert rewrite.successor["Unblockable"] == "Unblockable"
    copied = Aligned(full_store, "2003-03-15", "2003-07-01")
    for label in ("104.1", "104.2", "104.3a", "104.4"):
        assert copied.kind(label) == "added"


def test_5_a_piece_among_its_sources_family_is_found(rewrite_2009: Aligned) -> None:
    """2009: 309.1 (blockers declared: triggers, then priority) became 509.4 and 509.5; the
    subrules 509.4a-f stand between the two, too far for the neighbourhood, but 509.5 is a
    rule of the same section as 309.1's successor."""
    assert rewrite_2009.successor["309.1"] == "509.4"
    assert rewrite_2009.pieces("309.1") == ["509.5"]


def test_5_a_lead_rule_is_a_piece_of_the_source_of_its_subrules(rewrite_2009: Aligned) -> None:
    """2009: 217.1c (an object that changes zones is a new object; "There are seven
    exceptions ...") became the lead 400.7 and its exceptions 400.7a-f. The lead stands
    more than a neighbourhood away from the last exception, which was paired first; as the
    parent of the exceptions, it is found among their family, and it keeps the identity
    (the old first sentence is its own)."""
    assert rewrite_2009.successor["217.1c"] == "400.7"
    assert rewrite_2009.pieces("217.1c") == [f"400.7{c}" for c in "abcdef"]


def test_5_a_piece_is_looked_for_in_the_clause_it_lost_its_best_match_to(
    rewrite_2009: Aligned,
) -> None:
    """2009: 308.1 (declaring attackers) became 508.1b, 508.4, 508.2 and 508.3. 508.1b,
    on attacking planeswalkers, matched 308.1 best, but 308.1 went on as 508.4; the two
    stand far apart, and the similarity was short of a restatement. Nine words in ten of
    508.1b are words 308.1 lost, which makes it a piece. (The identity then moves to it:
    no piece kept 308.1's opening, and 508.1b holds the statement that came next.)"""
    linked = {rewrite_2009.successor["308.1"], *rewrite_2009.pieces("308.1")}
    assert linked == {"508.1b", "508.2", "508.3", "508.4"}


def test_5_a_sentence_two_clauses_lost_goes_with_the_one_in_its_section(
    rewrite_2009: Aligned,
) -> None:
    """2009: 310.1 (the combat damage step) and 311.1 (the end of combat step) both ended
    "Then the active player gets priority and players may play spells and abilities.", and
    both steps got a rule of their own for it: 510.4 ("Fourth, ...") and 511.2 ("Second,
    ..."). Each piece holds the words both clauses lost equally; it goes with the one whose
    successor is in its section."""
    assert rewrite_2009.successor["310.1"] == "510.1"
    assert rewrite_2009.pieces("310.1") == ["510.3", "510.4"]
    assert rewrite_2009.successor["311.1"] == "511.1"
    assert rewrite_2009.pieces("311.1") == ["511.2"]


def test_5_a_rule_said_for_two_cases_is_split_into_both(rewrite_2009: Aligned) -> None:
    """2009: 415.2 "An activated or triggered ability is targeted if ..." became 113.1c on
    activated abilities and 113.1d, the same words but for the moment targets are chosen,
    on triggered ones. 113.1d lost 415.2 to 113.1c and holds "triggered", the word
    113.1c dropped; each case gained a sentence of its own, so it holds too few of 415.2's
    words to be a piece by its words alone."""
    assert rewrite_2009.successor["415.2"] == "113.1c"
    assert rewrite_2009.pieces("415.2") == ["113.1d"]


def test_5_a_sentence_moved_word_for_word_is_a_merge(rewrite_2009: Aligned) -> None:
    """2009: 205.3c (subtypes are also called types) went away; its last sentence, "Objects
    may have multiple subtypes.", is now the last sentence of 204.3b, which continues 205.3b.
    Five words of 205.3c's thirty: too few to count, but said once in each release, word
    for word, they say where the clause went."""
    assert rewrite_2009.successor["205.3b"] == "204.3b"
    assert rewrite_2009.absorbed("204.3b") == ["205.3c"]
    o = rewrite_2009.old_index["205.3c"]
    assert rewrite_2009.result.evidence_old(o) == ("sentence", 100.0, False)


def test_5_a_sentence_moved_word_for_word_is_a_piece(full_store: Database) -> None:
    """2010-06-18: 806.7b (the order of choices in Two-Headed Giant) became 805.6 for the
    shared team turns option; its sentence "The team whose turn it is is the active team."
    opens the new 805.4a, and 805.6 no longer says it."""
    aligned = Aligned(full_store, "2010-04-23", "2010-06-18")
    assert aligned.successor["806.7b"] == "805.6"
    assert aligned.pieces("806.7b") == ["805.4a"]


def test_5_a_glossary_entry_gives_its_sentences_to_the_rule_it_now_cites(
    rewrite_2009: Aligned,
) -> None:
    """2009: the entry "Mana Pool" kept a definition and "See rule 106.4."; its sentences
    on where mana goes and when the pool empties are 106.4's, beside words of the rule's
    own, too many for the words of the whole rule to say where it came from. The entry
    keeps its identity (it continues as "Mana Pool")."""
    assert rewrite_2009.successor["Mana Pool"] == "Mana Pool"
    assert rewrite_2009.pieces("Mana Pool") == ["106.4"]
    assert rewrite_2009.pieces("Reveal") == ["701.12a"]
    n = rewrite_2009.new_index["106.4"]
    method, score, weak = rewrite_2009.result.evidence_new(n)
    assert method == "entry-sentence" and score is not None and score >= 70 and not weak


def test_5_a_rule_that_opens_with_an_old_rule_is_no_piece_of_an_entry(
    rewrite_2009: Aligned,
) -> None:
    """2009: 204.3f "Artifacts have their own unique set of subtypes; these subtypes are
    called artifact types. The artifact types are ..." ends with what the entry "Artifact
    Type" said, and cites nothing else, but it opens with 205.3d's statement: the entry
    only repeated the list."""
    assert rewrite_2009.pieces("Artifact Type") == []
    assert rewrite_2009.pieces("Mana Ability") == []


def test_5_an_old_rule_kept_word_for_word_gave_no_rule_its_opening(
    rewrite_2009: Aligned,
) -> None:
    """2009: the entry "Match" now cites 100.5, and its sentences on two-player and
    multiplayer matches are 100.5a's, word for word, after an opening of the rule's own
    ("Tournaments usually consist of a series of matches."). That opening reads a little
    like 600.2 ("These rules consist of a series of options ..."), more than like the
    entry; but 600.2 is 800.2 word for word, and a rule that kept all its words gave
    none away: it is no rival to the entry."""
    assert rewrite_2009.successor["600.2"] == "800.2"
    assert rewrite_2009.pieces("Match") == ["100.5a"]
    assert rewrite_2009.kind("100.5a") == "split"


def test_a_sentence_is_a_statement_not_an_aside() -> None:
    """Short sentences and citations are what many rules share: they are no evidence."""
    assert sentences('Objects may have multiple subtypes. See rule 205.3, "Subtypes."') == [
        " objects may have multiple subtypes "
    ]
    assert sentences("It comes into play tapped under your control. Tap it.") == [
        " it enters battlefield tapped under your control "
    ]


def test_5_a_merge_home_keeps_the_identity_a_split_would_move(full_store: Database) -> None:
    """Eleven years apart (2008-02-01 -> 2019-10-04, as a store holding only some releases
    aligns them), 502.63b's split would have moved its identity off 702.2f, a clause that
    had also taken another in: the merge was left with no clause continuing there, and the
    alignment failed. A clause where lineages meet keeps the identity: every merge's home
    continues a clause, and every split's source is continued (the same, for a merge
    that would move its identity off a clause that split)."""
    aligned = Aligned(full_store, "2008-02-01", "2019-10-04")
    assert aligned.result.merges and aligned.result.splits
    assert all(n in aligned.result.matches for n in aligned.result.merges)
    continued = set(aligned.result.matches.values())
    assert all(o in continued for o in aligned.result.splits)


def test_5_a_rule_restated_in_another_section_is_a_piece(rewrite_2009: Aligned) -> None:
    """2009: the Two-Headed Giant life payment rule 215.4a went to 117.4a and was restated
    word for word as 806.9d. Its context was against 806.9d in the first round and 215.4a
    was taken by then, so the strong similarity must still be remembered as 806.9d's
    nearest clause for the restatement to be found."""
    assert rewrite_2009.successor["215.4a"] == "117.4a"
    assert rewrite_2009.pieces("215.4a") == ["806.9d"]


def test_5_a_rule_made_on_another_keywords_template_is_no_restatement(
    full_store: Database,
) -> None:
    """2007-05-01: Fortify (502.65a) was written on Equip's template (502.33a), and is as
    similar to it as a restatement is to its source; but it names its own keyword, which
    neither 502.33a nor its successor says: it is a new rule, no piece of Equip."""
    aligned = Aligned(full_store, "2007-02-01", "2007-05-01")
    assert aligned.successor["502.33a"] == "502.33a"
    assert aligned.kind("502.65a") == "added"
    assert aligned.pieces("502.33a") == []


def test_5_what_was_said_twice_and_is_said_once_is_a_merge(full_store: Database) -> None:
    """2022-10-07: 723.2a (the planar deck) and 723.2d (the scheme deck) said the same of
    two decks; 724.2a says it of every supplementary deck. No word of 723.2d is new there,
    but it is a passage of 724.2a, next to where 723.2a went."""
    aligned = Aligned(full_store, "2022-09-08", "2022-10-07")
    assert aligned.successor["723.2a"] == "724.2a"
    assert aligned.ending("723.2d") == "merged"
    assert aligned.absorbed("724.2a") == ["723.2d"]


def test_5_a_first_sentence_ends_after_its_closing_quote(rewrite_2009: Aligned) -> None:
    """2009: 419.8a opens 'Some effects apply to damage from a source-for example, "... prevent
    that damage."' and goes on 'If an effect requires a player to choose a source ...'. Its
    statement is the first sentence only: 608.7 carries it, 608.7a the second sentence."""
    assert rewrite_2009.successor["419.8a"] == "608.7"
    assert rewrite_2009.pieces("419.8a") == ["608.7a"]


def test_5_a_term_in_quotation_marks_is_the_same_term(rewrite_2009: Aligned) -> None:
    """2009: the entry '"As Though"' lost its quotation marks; its rule text went to 608.4
    and 608.4a."""
    assert rewrite_2009.successor['"As Though"'] == "As Though"
    assert rewrite_2009.pieces('"As Though"') == ["608.4", "608.4a"]


def test_5_a_title_holds_no_passage(rewrite_2009: Aligned) -> None:
    """2009: 107.3d (X in a morph cost) came from the entry "X". A rule that already held a
    passage is its source, not the glossary; but a heading such as "Morph" shares all of its
    one word with the passage and holds nothing. (107.3 itself, the entry's opening
    sentence beside words of its own, is a piece by that sentence.)"""
    assert rewrite_2009.pieces("X")[:5] == ["107.3", "107.3a", "107.3b", "107.3c", "107.3d"]


def test_1_a_heading_as_like_one_of_another_level_waits_for_context(
    rewrite_2009: Aligned,
) -> None:
    """2009: rule heading 217.7 "Removed from the Game" reads "Exile" in the new vocabulary,
    like both section 406 (where its rules went) and the keyword action 701.9. Where its
    parent went (217 -> chapter 4) decides: 406; 701.9 is new."""
    assert rewrite_2009.successor["217.7"] == "406"
    assert rewrite_2009.kind("701.9") == "added"
    assert rewrite_2009.successor["400"] == "600"  # a heading that kept its level moves too


def test_4_rules_of_an_absorbed_heading_follow_its_title(rewrite_2009: Aligned) -> None:
    """2009: section 404 "Triggered Abilities" was merged into 603 "Handling Triggered
    Abilities" (which continues 410); its rules 404.1 and 404.2, rewritten, are 603.1 and
    603.3. Casting and activating (409 -> 601, 602) keep their own children's vote."""
    assert rewrite_2009.successor["404.1"] == "603.1"
    assert rewrite_2009.successor["404.2"] == "603.3"
    assert rewrite_2009.successor["409"] == "601"
    assert rewrite_2009.successor["409.1a"] == "601.2a"


def test_5_a_heading_whose_children_went_under_another_is_merged_there(
    rewrite_2009: Aligned,
) -> None:
    """2009: sections 404 "Triggered Abilities", 405 "Static Abilities" and 411 "Playing Mana
    Abilities" have no successor of their own: their rules went under 603, 604 and 605, whose
    titles hold theirs. They are merged there, with the share of their children as evidence;
    section 401 "Spells on the Stack", whose rules went to 111 and 607, stays removed."""
    for absorbed, home, kept in (
        ("404", "603", "410"),
        ("405", "604", "412"),
        ("411", "605", "406"),
    ):
        assert absorbed in rewrite_2009.absorbed(home)
        assert rewrite_2009.successor[kept] == home
        assert rewrite_2009.ending(absorbed) == "merged"
        evidence = rewrite_2009.result.evidence_old(rewrite_2009.old_index[absorbed])
        assert evidence[0] == "absorbed"
    assert rewrite_2009.ending("401") == "removed"


def test_5_a_heading_whose_rules_became_a_rules_subrules_is_merged_into_it(
    rewrite_2009: Aligned,
) -> None:
    """2009: section 216 "Tokens" became no section: its rules are 110.5b-f, under 110.5
    "Some effects put tokens onto the battlefield. A token is a marker ...", which continues
    200.4's definition of a token. The section went into that rule. Section 510 "Status"
    went the same way under 110.6, but 110.6 continues 510.1, its own first rule: the
    section is removed, its rules go on."""
    assert rewrite_2009.successor["200.4"] == "110.5"
    assert rewrite_2009.absorbed("110.5") == ["216"]
    assert rewrite_2009.ending("216") == "merged"
    assert rewrite_2009.successor["510.1"] == "110.6"
    assert rewrite_2009.ending("510") == "removed"


def test_4_a_clause_one_level_deeper_under_its_parents_successor(full_store: Database) -> None:
    """2003-07-01: the declaration of attackers (308.1) became the first step (308.2a) of the
    new rule 308.2, still in section 308; the rewritten 308.1 is the step overview, which
    only a position (the same number) linked to it."""
    aligned = Aligned(full_store, "2003-05-26", "2003-07-01")
    assert aligned.successor["308.1"] == "308.2a"


def test_1_a_renamed_glossary_entry_continues(rewrite_2009: Aligned) -> None:
    """2009: entries renamed as their definitions were rewritten in a few words; the term
    (vocabulary folded, by stem), the rule cited (509 became 711, 421 became 713) and a
    definition naming the other term say which entry continues which. Entries that only
    share a word with a new term (Put into Play, Floor Rules, Order) stay removed. "In
    Play" is "Battlefield" in the new vocabulary, its whole term, and the entry says the
    battlefield "used to be known as the 'in-play' zone" (the 2009 truth's reading)."""
    renamed = {
        "In Play": "Battlefield",
        "Comes into Play": "Enters the Battlefield",
        "Depend On": "Dependency",
        "Ending the Turn": "End the Turn",
        "Flip a Coin": "Flipping a Coin",
        "Infinity Rule (Informal)": "Loop",
    }
    for old_term, new_term in renamed.items():
        assert rewrite_2009.successor.get(old_term) == new_term, old_term
        # "In Play" also kept its old name as an obsolete entry, split off it
        expected = "split" if old_term == "In Play" else "renumbered+reworded"
        assert rewrite_2009.kind(new_term) == expected
        assert rewrite_2009.result.method[rewrite_2009.new_index[new_term]] == "renamed"
    for old_term in ("Put into Play", "Floor Rules", "Order", "Shield", "Number"):
        assert rewrite_2009.ending(old_term) == "removed", old_term
    for new_term in ("Damage Assignment Order", "Prevent", "Shortcut"):
        assert rewrite_2009.result.matches.get(rewrite_2009.new_index[new_term]) is None


def test_1_a_term_made_obsolete_is_no_proof_of_identity(full_store: Database) -> None:
    """2024-06-07: Totem Armor was renamed Umbra Armor (same definition, the new name in its
    reference), and a new entry "Totem Armor (Obsolete)" points to it. The entry continues
    as Umbra Armor, though the obsolete one has its term; the obsolete one is split off it
    (`test_5_an_old_term_kept_as_an_obsolete_entry_is_split_off_it`)."""
    aligned = Aligned(full_store, "2024-04-10", "2024-06-07")
    assert aligned.successor["Totem Armor"] == "Umbra Armor"
    assert aligned.kind("Umbra Armor") == "split"
    assert aligned.result.method[aligned.new_index["Umbra Armor"]] != "term"


def test_5_a_clause_folded_into_its_siblings_rewrite_is_merged(full_store: Database) -> None:
    """2015-07-17: 701.16d (a replacement effect moves the objects: no shuffle) was folded
    into the rewrite of its sibling 701.16c; few of its words are new there, but the words
    that told it apart from 701.16c are."""
    aligned = Aligned(full_store, "2015-03-27", "2015-07-17")
    assert aligned.successor["701.16c"] == "701.16c"
    assert aligned.ending("701.16d") == "merged"
    assert aligned.kind("701.16c") == "merged"
    assert aligned.absorbed("701.16c") == ["701.16d"]


def test_6_markup_and_lost_characters_are_formatting(full_lineage: Database) -> None:
    """2014-05-01: 100.1 only lost its `_Magic_` italics markup; blame must not date the
    rule from then."""
    kinds = dict(
        full_lineage.execute(
            "SELECT new_numbers, kind FROM lineage_events WHERE release = '2014-05-01'"
        ).fetchall()
    )
    assert kinds['["100.1"]'] == "formatting"
    newest = full_lineage.execute("SELECT max(date) FROM releases").fetchone()[0]
    since = {row["number"]: row["since"] for row in blame(full_lineage, newest, "100")}
    assert since["100.1"] != "2014-05-01"


def kinds_of(db: Database, *changes: tuple[str, str]) -> list[str | None]:
    """The kind of change of each (release, clause number or term) that release brought."""
    found = []
    for release, label in changes:
        row = db.execute(
            "SELECT kind FROM lineage_events WHERE release = ? AND new_numbers = ?",
            [release, json.dumps([label])],
        ).fetchone()
        found.append(row[0] if row else None)
    return found


def test_6_braced_font_letter_mana_is_formatting(full_lineage: Database) -> None:
    """2005-02-01: the releases of 2003-07-01 to 2004-10-01 set the mana symbols {0} and {3}
    as font letters in braces, "{o0}" and "{o3}"; 2005-02-01 set them as symbols. No word
    changed: 502.26a, 502.26b and 502.26e (and every other clause that did only this) are
    formatting there, and their wordings do not start again."""
    clauses = ("502.26a", "502.26b", "502.26e", "104.3", "203.1", "Forest")
    changes = [("2005-02-01", clause) for clause in clauses]
    assert kinds_of(full_lineage, *changes) == ["formatting"] * len(changes)


def test_6_a_lost_dash_before_a_bracket_or_a_comma_is_formatting(
    full_lineage: Database,
) -> None:
    """2008-05-01 lost the em dash of "Suspend N—[cost]" and "Choose one —," to "?", and
    2008-07-15 gave it back: no word changed either way. 502.77a (reinforce) is only
    renumbered in 2009-07-08, its dash lost again in 2009-05-01 and given back there."""
    changes = [
        (day, clause)
        for day in ("2008-05-01", "2008-07-15")
        for clause in ("502.59a", "Modal, Mode")
    ]
    assert kinds_of(full_lineage, *changes) == ["formatting"] * len(changes)
    assert kinds_of(full_lineage, ("2009-07-08", "702.74a")) == ["renumbered"]


def test_6_angle_brackets_are_square_ones(full_lineage: Database) -> None:
    """1999-11-01 set the placeholders of 1999-04-23 in square brackets ("<This card>" ->
    "[This card]"); 2014-02-01 put a web address without "www." in angle brackets. No word
    changed."""
    changes = [("1999-11-01", "402.2"), ("1999-11-01", "408.2f"), ("2014-02-01", "206.4")]
    assert kinds_of(full_lineage, *changes) == ["formatting"] * len(changes)


def test_6_single_quotes_outside_words_are_quotation_marks(full_lineage: Database) -> None:
    """2004-02-01 wrote 404.3's "intervening 'if' clause" with one double quote, 2004-06-01
    with single ones again; 2021-11-15 dropped a stray opening quote from 903.10a ("A player
    'who's been dealt"). Quotation marks only: formatting. An apostrophe in a word stays a
    letter of it."""
    changes = [("2004-02-01", "404.3"), ("2004-06-01", "404.3"), ("2021-11-15", "903.10a")]
    assert kinds_of(full_lineage, *changes) == ["formatting"] * len(changes)


def test_7_an_example_change_is_a_change_of_its_rule(full_lineage: Database) -> None:
    """2016-04-08: 118.9 lost its Ajani's Pridemate example; its own words did not change."""
    event = full_lineage.execute(
        "SELECT kind FROM lineage_events WHERE release = '2016-04-08' AND new_numbers = ?",
        [json.dumps(["118.9"])],
    ).fetchone()
    assert event == ("example",)
    found = diff_releases(full_lineage, "2016-01-16", "2016-04-08", "118.9")
    change = next(c for c in found["changes"] if c["new"] == ["118.9"])
    assert change["kind"] == "example"
    deleted = " ".join(text for op, text in change["diff"] if op == -1)
    assert "Pridemate" in deleted


def test_3_children_outweigh_an_equal_title(full_store: Database) -> None:
    """2003-07-01: section 401 "Spells" went on as 401 "Spells on the Stack" (its rules are
    there) while section 213 "Spell Type" became 213 "Spells": the equal titles paired first,
    the children move the pairing where they went."""
    aligned = Aligned(full_store, "2003-03-15", "2003-07-01")
    assert aligned.successor["401"] == "401"
    assert aligned.successor["213"] == "213"
    assert aligned.result.method[aligned.new_index["401"]] == "children"


def test_1_a_section_renamed_where_it_stands_keeps_its_number(full_store: Database) -> None:
    """2003-07-01: section 212 "Card Type" became 212 "Type, Supertype, and Subtype" and 214
    "Permanent Type" became 214 "Permanents", though most rules of old 214 went under the
    new 212 (the children alone gave 214's identity to 212, and left 212 and the new 214
    without one); 415 "Editing a Spell or Ability" is 415 "Targeted Spells and Abilities",
    its target-changing rules now 415.7a-c. Where the children agree with the number (503
    "Copying Spells and Abilities" -> "Copying Objects"), they stay the evidence."""
    aligned = Aligned(full_store, "2003-03-15", "2003-07-01")
    assert aligned.successor["212"] == "212"
    assert aligned.successor["214"] == "214"
    assert aligned.successor["415"] == "415"
    method = aligned.result.method
    assert method[aligned.new_index["214"]] == "gap"
    assert method[aligned.new_index["503"]] == "children"


def test_5_a_clause_said_again_in_a_rewrite_is_merged_there_not_left_over(
    full_store: Database,
) -> None:
    """2023-04-14: 713.12, on naming a meld card, is said word for word in 712.19, the
    rewrite of 712.15 on naming a double-faced card; a leftover pairing, by the template
    "If an effect instructs a player to ..." alone, had made it 701.19j on searching
    outside the game."""
    aligned = Aligned(full_store, "2022-11-18", "2023-04-14")
    assert aligned.successor["712.15"] == "712.19"
    assert aligned.absorbed("712.19") == ["713.12"]
    assert "713.12" not in aligned.successor


def test_5_an_old_term_kept_as_an_obsolete_entry_is_split_off_it(
    rewrite_2009: Aligned, full_store: Database
) -> None:
    """2009: "In Play" became "Battlefield", and the new entry "In Play (Obsolete)" keeps
    the old name, pointing there; 2024-06-07 did the same for Totem Armor (Umbra Armor). The
    old entry continues under its new term, and the obsolete one is split off it."""
    assert rewrite_2009.successor["In Play"] == "Battlefield"
    assert rewrite_2009.pieces("In Play") == ["In Play (Obsolete)"]
    renamed = Aligned(full_store, "2024-04-10", "2024-06-07")
    assert renamed.successor["Totem Armor"] == "Umbra Armor"
    assert renamed.pieces("Totem Armor") == ["Totem Armor (Obsolete)"]
    assert renamed.kind("Totem Armor (Obsolete)") == "split"


def test_8_a_range_that_follows_a_renumbering_is_a_reference(full_store: Database) -> None:
    """2015-07-17: 117.2 "follows the steps in rules 601.2e-g" -> "601.2f-h" (a new 601.2c)."""
    aligned = Aligned(full_store, "2015-03-27", "2015-07-17")
    assert aligned.kind("117.2") == "reference"
    # the same range written another way is formatting: "409.1a-409.1h" -> "409.1a-h"
    assert Aligned(full_store, "2007-02-01", "2007-05-01").kind("409.1i") == "formatting"


def test_8_a_title_quoted_with_a_reference_follows_its_rule(
    full_store: Database, rewrite_2009: Aligned
) -> None:
    """2009-07-08: 424.2 -> 116.3 quotes rule 602, "Activating Activated Abilities" (was
    rule 403, "Activated Abilities"): renumbered, no word of its own changed. 2011-05-01:
    the entry "Win the Game" quotes rule 104 as "Ending the Game", the section's new title."""
    assert rewrite_2009.successor["424.2"] == "116.3"
    assert rewrite_2009.kind("116.3") == "renumbered"
    assert Aligned(full_store, "2011-04-01", "2011-05-01").kind("Win the Game") == "reference"


def test_each_decision_keeps_its_evidence(full_lineage: Database) -> None:
    rows = list(
        full_lineage.query(
            "SELECT kind, method, score, weak FROM lineage_events WHERE release = '2009-07-08'"
        )
    )
    assert all(row["method"] for row in rows)
    for row in rows:
        if row["method"] in CERTAIN_METHODS:
            assert not row["weak"]
        elif row["score"] is not None and row["kind"] not in ("added", "removed"):
            assert row["weak"] == (row["method"] in WORDS_ALONE or row["score"] < WEAK)
    # a pairing of what nothing else claimed rests on its words alone: never certain
    leftovers = [row for row in rows if row["method"] == LEFTOVER]
    assert leftovers and all(row["weak"] for row in leftovers)
    assert any(row["score"] >= WEAK for row in leftovers)  # marked whatever its score
    # the glossary's "Turn Marker" -> "Turn Markers" rests on its place only: weak
    marker = full_lineage.execute(
        "SELECT method, weak FROM lineage_events WHERE release = '2009-07-08' AND new_numbers = ?",
        [json.dumps(["Turn Markers"])],
    ).fetchone()
    assert marker == ("gap", 1)
