"""Parsing: lossless for every capture, and the parts of each era come out right."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from archive.decode import decode_capture
from archive.errors import CaptureError
from archive.manifest import CAPTURES_DIR, load_manifest, read_capture_bytes
from archive.parse import parse_release

CAPTURES = load_manifest()


def decoded(name: str) -> str:
    capture = next(c for c in CAPTURES if c.name == name)
    return decode_capture(read_capture_bytes(CAPTURES_DIR, capture), capture.encoding, name)


def parts_by_number(name: str) -> dict[str, object]:
    return {p.number: p for p in parse_release(decoded(name)).parts if p.number}


@pytest.mark.parametrize("capture", CAPTURES, ids=lambda c: c.name)
def test_every_capture_rebuilds_exactly_and_has_its_parts(capture):
    text = decode_capture(read_capture_bytes(CAPTURES_DIR, capture), capture.encoding, capture.file)
    parsed = parse_release(text, capture.file)
    assert parsed.rebuild() == text
    kinds = {part.kind for part in parsed.parts}
    expected = {"front", "contents", "chapter", "section", "rule", "subrule", "glossary"}
    if capture.role == "derived":  # the re-extracted 2003-05-26 copy has no contents table
        expected.discard("contents")
    assert expected <= kinds
    rules = [p for p in parsed.parts if p.kind == "rule"]
    assert len(rules) > 190
    assert rules[0].number == "100.1"


def test_onslaught_morph_and_face_down_rules():
    parts = parts_by_number("2002-10-07.txt")
    assert parts["504"].title == "Face-Down Spells and Permanents"
    assert parts["504"].kind == "section"
    assert parts["502.26a"].kind == "subrule"
    assert parts["502.26a"].parent == "502.26"
    assert parts["502.26a"].text.startswith("Morph is a static ability")
    assert parts["502.26f"].text.startswith("See rule 504")
    assert parts["504.2"].parent == "504"


def test_2024_face_down_rules_are_708():
    parts = parts_by_number("2024-06-07.txt")
    assert parts["708"].title == "Face-Down Spells and Permanents"
    assert "2/2 face-down creature with no text, no name" in parts["708.2a"].text
    assert parts["702.37"].text == "Morph"


def test_hard_wrapped_rules_are_joined_and_keep_broken_hyphens():
    parts = parts_by_number("2003-10-01.alt.txt")
    text = parts["504.4"].text
    assert "\n" not in text
    assert "the order that face-down permanents came into play" in text
    assert parts["504.2"].text.endswith("will see only the face-down spell's characteristics.")


def test_1999_conversion_with_banners_and_indented_subrules():
    parsed = parse_release(decoded("1999-04-23.txt"))
    parts = {p.number: p for p in parsed.parts if p.number}
    assert parts["214.6a"].kind == "subrule"
    assert parts["100.1"].text.startswith("These Magic rules assume a game between two players.")
    assert "\n" not in parts["100.1"].text
    assert "=====" not in parts["1"].text
    assert [p.kind for p in parsed.parts][-2:] == ["index", "credits"]


def test_examples_are_attached_to_their_rule():
    parsed = parse_release(decoded("2024-06-07.txt"))
    examples = [p for p in parsed.parts if p.kind == "example"]
    assert len(examples) > 250
    first = examples[0]
    assert first.parent == "101.2"
    assert first.text.startswith("Example:")


def test_glossary_entries_before_and_after_2009():
    old = [p for p in parse_release(decoded("2008-02-01.txt")).parts if p.kind == "glossary"]
    new = [p for p in parse_release(decoded("2024-06-07.txt")).parts if p.kind == "glossary"]
    assert old[0].title == "Ability"
    assert "When an activated ability is played" in old[0].text
    ability = next(p for p in new if p.title == "Ability")
    assert ability.text.startswith("1. Text on an object that explains")
    assert "2. An activated or triggered ability on the stack." in ability.text
    assert any(p.title == "Face Down" or p.title == "Face-Down" for p in new)


def test_stated_dates_are_found():
    assert parse_release(decoded("2020-01-22.txt")).stated_date_text == "January 24, 2020"
    assert parse_release(decoded("1999-11-01.txt")).stated_date_text == "November 1, 1999"


def test_truncated_glossary_is_a_warning_not_an_error():
    parsed = parse_release(decoded("2011-09-30.txt"))
    assert not parsed.complete
    assert parsed.warnings


def test_text_truncated_inside_the_rules_is_an_error():
    text = decoded("2008-02-01.txt")
    cut = text[: text.index("504.3.")]
    with pytest.raises(CaptureError, match="truncated"):
        parse_release(cut, "cr/2008-02-01-cut.txt")


def test_a_text_without_rules_is_not_a_cr():
    with pytest.raises(CaptureError, match="not a Comprehensive Rules text"):
        parse_release("Hello\n\nThis is a blog post.\n", "page.txt")


line = st.one_of(
    st.sampled_from(["", "   ", "-----", "Glossary", "Credits", "Example: x", "Term"]),
    st.from_regex(r"\A[1-9]\d{2}\.\d{1,2}[a-z]? [A-Za-z ,.-]{0,30}\Z", fullmatch=True),
    st.from_regex(r"\A[1-9]\. [A-Z][a-z ]{0,20}\Z", fullmatch=True),
    st.text(alphabet=st.characters(blacklist_characters="\n\r"), max_size=40),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(line, max_size=40), st.booleans())
def test_parsing_is_lossless_for_any_text_around_a_real_skeleton(lines, trailing_newline):
    text = "\n".join(
        ["Contents", "1. Game", "", "1. Game", "", "100. General", "", "100.1. A rule."]
        + lines
        + ["", "Glossary", "", "Ability", "A thing."]
    )
    text += "\n" if trailing_newline else ""
    assert parse_release(text).rebuild() == text


def test_a_rule_printed_without_a_space_after_its_number_is_its_own_rule():
    parts = parts_by_number("2024-06-07.txt")
    assert parts["901.4"].text.startswith("All plane and phenomenon cards remain")
    assert "All plane" not in parts["901.3"].text
    assert parts_by_number("1999-11-01.txt")["305.3"].text.startswith("The main phase begins")


def test_the_derived_scourge_copy_parses_without_a_contents_table():
    """2003-05-26 is a re-extracted copy: em dashes, no contents, the Scourge rules."""
    parsed = parse_release(decoded("2003-05-26.txt"))
    assert parsed.warnings == []
    kinds = [p.kind for p in parsed.parts]
    assert "contents" not in kinds and kinds[:2] == ["front", "chapter"]
    parts = {p.number: p for p in parsed.parts if p.number}
    assert parts["502.30"].text == "Storm" and parts["502.30a"].parent == "502.30"
    assert parts["502.18c"].text.startswith("Landcycling is a variant of the cycling ability.")
    assert "\u2014" in decoded("2003-05-26.txt")


@pytest.mark.parametrize("name", ["2021-09-24.txt", "2023-02-03.txt", "2023-09-01.txt"])
def test_bare_cr_releases_with_a_bom_parse_cleanly(name):
    capture = next(c for c in CAPTURES if c.name == name)
    data = read_capture_bytes(CAPTURES_DIR, capture)
    assert data.startswith(b"\xef\xbb\xbf") and b"\r\n" in data and data.count(b"\r") > 7000
    parsed = parse_release(decoded(name))
    assert parsed.warnings == [] and parsed.complete
    parts = {p.number: p for p in parsed.parts if p.number}
    assert parts["702.37"].text == "Morph"
    assert parts["100.1"].text.startswith("These Magic rules apply to any Magic game")
