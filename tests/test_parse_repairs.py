"""Parser defects seen while judging lineages (issue 10), each on the capture where it was."""

from __future__ import annotations

from archive.decode import decode_capture
from archive.manifest import CAPTURES_DIR, load_manifest, read_capture_bytes
from archive.parse import Part, parse_release

CAPTURES = load_manifest()


def parts(name: str) -> list[Part]:
    capture = next(c for c in CAPTURES if c.name == name)
    text = decode_capture(read_capture_bytes(CAPTURES_DIR, capture), capture.encoding, name)
    parsed = parse_release(text, name)
    assert parsed.rebuild() == text  # the repairs lose nothing
    return parsed.parts


def by_number(name: str) -> dict[str | None, Part]:
    return {part.number: part for part in parts(name) if part.number}


def test_1999_subrules_that_lost_their_rule_number_follow_408_2e() -> None:
    """1999-11-01 prints "408.f" and "408.g" after 408.2e: they are 408.2f and 408.2g."""
    found = by_number("1999-11-01.txt")
    assert found["408.2e"].text.endswith('(See rule 406.1, "Mana Abilities.")')
    assert found["408.2f"].text.startswith("Card text that isn't an ability")
    assert found["408.2g"].text.startswith("Game actions")
    assert found["408.2g"].parent == "408.2"
    # what the text printed is kept beside the number read, for the reader to be told
    assert (found["408.2f"].printed, found["408.2g"].printed) == ("408.f", "408.g")
    assert found["408.2e"].printed is None


def test_a_number_printed_otherwise_is_kept_as_printed() -> None:
    """Every repaired or respaced number of the archive keeps what was printed; a rule
    printed without a space after its number ("305.3.After", 1999-04-23) is printed as read."""
    printed = {
        (name, number): part.printed
        for name, number in [
            ("1999-04-23.txt", "305.3"),
            ("2005-08-01.txt", "606.8b"),
            ("2008-10-01.txt", "306.3b"),
            ("2009-07-08.txt", "702.37a"),
            ("2009-07-08.txt", "702.37b"),
            ("2009-07-08.txt", "702.36a"),
        ]
        for part in [by_number(name)[number]]
    }
    assert printed == {
        ("1999-04-23.txt", "305.3"): None,
        ("2005-08-01.txt", "606.8b"): "606. 8b",
        ("2008-10-01.txt", "306.3b"): "306.b",
        ("2009-07-08.txt", "702.37a"): "702. 37a",
        ("2009-07-08.txt", "702.37b"): "702. 37b",
        ("2009-07-08.txt", "702.36a"): None,
    }


def test_a_lost_rule_number_is_repaired_only_when_the_letter_follows() -> None:
    text = (
        "1. Game Concepts\n\n100. General\n\n100.1. These are the rules.\n\n"
        "100.1a First.\n\n100.b Second.\n\n100.d Not the next letter.\n\nGlossary\n\nA\nB.\n"
    )
    found = {part.number: part for part in parse_release(text).parts if part.number}
    assert found["100.1b"].text.startswith("Second.")
    assert "100.1d" not in found and "100.d Not the next letter." in found["100.1b"].text


def test_2009_stray_space_in_702_37a_is_its_own_subrule() -> None:
    found = by_number("2009-07-08.txt")
    assert found["702.37"].text == "Storm"
    assert found["702.37a"].text.startswith("Storm is a triggered ability")
    assert found["702.37b"].text.startswith("If a spell has multiple instances of storm")


def test_2021_glossary_entry_without_a_blank_line_before_it() -> None:
    entries = {part.title: part for part in parts("2021-07-12.txt") if part.kind == "glossary"}
    assert entries["Adventurer Card"].text.endswith("See rule 716, \u201cAdventurer Cards.\u201d")
    assert entries["Affinity"].text.startswith("A keyword ability that reduces")


def test_section_stubs_are_sections_not_the_end_of_the_rule_before() -> None:
    stub_2006 = by_number("2006-02-01.txt")["215"]
    assert stub_2006.kind == "section"
    assert stub_2006.title is not None and stub_2006.title.startswith("This section is now empty")
    before = by_number("2006-02-01.txt")
    assert "This section is now empty" not in before["214.4"].text  # the rule before it
    stub_2007 = by_number("2007-10-01.txt")["211"]
    assert stub_2007.kind == "section" and stub_2007.text.startswith("[This section has been")


def test_2021_glossary_terms_run_into_their_first_meaning_are_split() -> None:
    """2021-06-09 printed eleven numbered entries with the line break after the term lost
    ("Ability1. Text on an object ..."): the term is "Ability", its text opens with "1.", as
    in the releases before and after, so that the entry is not renamed twice."""
    entries = {part.title: part for part in parts("2021-06-09.txt") if part.kind == "glossary"}
    assert entries["Ability"].text.startswith("1. Text on an object that explains")
    assert "\n2. An activated or triggered ability on the stack." in entries["Ability"].text
    assert entries["Ante"].text.startswith("1. A zone used only")
    before = {part.title for part in parts("2021-04-19.txt") if part.kind == "glossary"}
    joined = [title for title in entries if title not in before and "1. " in (title or "")]
    assert joined == []


def test_a_term_is_split_from_a_first_meaning_only_when_it_reads_as_a_term() -> None:
    text = (
        "1. Game Concepts\n\n100. General\n\n100.1. These are the rules.\n\nGlossary\n\n"
        "Draw1. To put a card into a hand.\n2. A game with no winner.\n\n"
        "see rule1. not a term\nA definition.\n\nCredits\n"
    )
    entries = [part for part in parse_release(text).parts if part.kind == "glossary"]
    assert [(e.title, e.text.split("\n")[0]) for e in entries] == [
        ("Draw", "1. To put a card into a hand."),
        ("see rule1. not a term", "A definition."),
    ]


def test_a_numbered_meaning_set_apart_by_a_blank_line_stays_in_its_entry() -> None:
    """1999-11-01 (Counter, Draw, Untap), the 2003-05-26 copy and the second capture of
    2016-08-26 (23 entries) set an entry's numbered meanings apart by blank lines: each
    "2. ..." (and "1. ...") was an entry of its own, titled with its definition."""
    for name, term in (("1999-11-01.txt", "Counter"), ("2016-08-26.txt", "Ability")):
        entries = {part.title: part for part in parts(name) if part.kind == "glossary"}
        assert not [title for title in entries if title and title[:1].isdigit()], name
        meanings = [line[:2] for line in entries[term].text.split("\n")]
        assert "1." in meanings and "2." in meanings, name
    copy = {part.title: part for part in parts("2003-05-26.txt") if part.kind == "glossary"}
    assert copy["Draw"].text.split("\n")[0] == "Draw has two meanings in the Magic game."
    assert copy["Draw"].text.split("\n")[2].startswith("2. A game ends in a draw")


def test_a_definition_set_apart_from_its_term_stays_in_its_entry() -> None:
    """The second capture of 2016-08-26 puts a blank line after every term and before every
    paragraph: each definition was read as an entry of its own, with no text, and every entry
    after the first such paragraph was off by one. Read again, its glossary is the preferred
    capture's, term for term and word for word; the 2003-05-26 copy's "Effect" (a blank line
    after the term) keeps its definition."""

    def glossary(name: str) -> dict[str | None, str]:
        return {p.title: " ".join(p.text.split()) for p in parts(name) if p.kind == "glossary"}

    second, preferred = glossary("2016-08-26.txt"), glossary("2016-08-26.alt.txt")
    assert len(second) > 500 and second == preferred
    copy = glossary("2003-05-26.txt")
    assert copy["Effect"].startswith('"Ability" and "effect" are often confused')
    assert all(text for text in copy.values())


def test_a_word_broken_at_its_hyphen_is_joined_whole_in_hard_wrapped_texts() -> None:
    """The hard-wrapped conversions break lines at hyphens: "Snow-" / "Covered Plains"
    (2001-07-23, 502.14b), "State-" / "Based Effects" and "-1/-" / "1" (2003-10-01) read
    "Snow- Covered", "State- Based", "-1/- 1". A hyphen left hanging before "and" keeps its
    space: "power-" / "and toughness-changing" (2003-12-01, an example of 418.5)."""
    snow = by_number("2001-07-23.txt")["502.14b"].text
    assert "Snow-Covered Plains" in snow and "- " not in snow
    rules_2003 = by_number("2003-10-01.alt.txt")
    assert '(see rule 420, "State-Based Effects")' in rules_2003["215.1"].text
    examples = [part.text for part in parts("2003-10-01.alt.txt") if part.kind == "example"]
    assert any("target creature gets -1/-1 until end of turn" in text for text in examples)
    assert not any("-1/- 1" in text for text in examples)
    hanging = [
        text
        for text in (part.text for part in parts("2003-12-01.alt.txt"))
        if "toughness-changing effect" in text and "a type-changing effect" in text
    ]
    assert hanging and all("power- and toughness-changing" in text for text in hanging)
    assert not any("power-and toughness" in text for text in hanging)
    creature_types = next(
        part.text
        for part in parts("2003-12-01.alt.txt")
        if part.kind == "glossary" and part.title == "Creature Type"
    )
    for name in ("Assembly-Worker", "Mold-Demon", "Will-o'-the-Wisp"):
        assert name in creature_types, name


def test_a_hard_wrapped_part_keeps_its_paragraphs() -> None:
    """A blank line inside a part of a hard-wrapped text sets a paragraph apart: 1999-04-23's
    glossary entry "Ability" has two, and the note after 410.10d's example is a paragraph
    of its own. They were run together with spaces, so each read as a change of formatting
    against the next release, which prints one paragraph per line."""
    entries = {part.title: part for part in parts("1999-04-23.txt") if part.kind == "glossary"}
    ability = entries["Ability"].text.split("\n")
    assert len(ability) == 2
    assert ability[1].startswith("A permanent may have one or more abilities")
    example = next(
        part.text
        for part in parts("1999-04-23.txt")
        if part.kind == "example" and "Leaves play" in part.text
    )
    assert example.split("\n")[1].startswith('"Leaves play" triggers are zone-change triggers')
    later = {part.title: part for part in parts("1999-11-01.txt") if part.kind == "glossary"}
    assert later["Untap"].text.count("\n") == entries["Untap"].text.count("\n")


def test_a_paragraph_opened_by_an_indent_keeps_its_line() -> None:
    """2003-10-01 is hard-wrapped and sets a part's second paragraph apart by indenting its
    first line, not by a blank line: 413.2d's "Some spells and abilities have multiple
    steps", the glossary's "Counter" meanings. Each stays a paragraph of its own, as the
    releases that are not wrapped print it; 1999-04-23, which indents for its layout, keeps
    its lines joined."""
    found = by_number("2003-10-01.txt")
    assert "are processed simultaneously.\nSome spells and abilities have multiple steps" in (
        found["413.2d"].text
    )
    entries = {part.title: part for part in parts("2003-10-01.txt") if part.kind == "glossary"}
    assert entries["Counter"].text.startswith(
        "Counter has two meanings in the Magic game.\n1. To counter a spell or ability"
    )
    assert "\n2. A counter is a marker" in entries["Counter"].text
    unwrapped = by_number("2004-06-01.txt")["413.2d"].text
    assert found["413.2d"].text == unwrapped  # the unwrapped release that follows, word for word
    layout = by_number("1999-04-23.txt")
    assert all("\n" not in part.text for part in layout.values() if part.kind == "subrule")
