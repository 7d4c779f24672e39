"""The comparison form of rules text (`archive.normalise`), by its properties over any text
made of the typography it maps: a form is final (normalising it again changes nothing), and
"differs only in formatting" is an equivalence's first two laws (a text is the same as itself;
the order of two texts does not matter) and never crosses a difference of formatting keys."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from archive.normalise import formatting_key, normalise, same_but_formatting

# Few letters and many of the pieces normalise maps: dashes spaced and doubled, quotes, marks
# a conversion lost, font-letter mana, trademarks, line breaks and odd spaces, markup.
PIECES = [
    *"ab Z09.,;:'\"-?_()[]{}<>\n\t",
    "\u2014",
    "\u2013",
    "\u2019",
    "\u201c",
    "\ufffd",
    "\u00a0",
    "\u2122",
    "(tm)",
    " - ",
    "--",
    "o2",
    "ocT",
    "{Tap}",
    "e\u0301",
    "www.example.com/rules",
]
TEXTS = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)


@given(TEXTS)
def test_a_normalised_text_is_final(text: str) -> None:
    """What `normalise` gives it gives back unchanged: a clause normalised at ingest compares
    equal to the same words normalised again (a witness's quote, an article's). Spaced and
    doubled dashes in a row ("a - - b") once became "--" in one pass and "-" in the next."""
    once = normalise(text)
    assert normalise(once) == once


def test_a_run_of_spaced_dashes_is_one_dash() -> None:
    assert normalise("a - - b") == normalise("a -- b") == normalise("a - b") == "a-b"
    assert normalise("rule -\n - text") == "rule-text"
    assert normalise("a\n-\nb") == "a-b"  # as before: a spaced dash joins what it separates
    assert normalise("face-down") == "face-down"  # a hyphen is no dash between words


@given(TEXTS, TEXTS)
def test_formatting_only_is_reflexive_and_symmetric(first: str, second: str) -> None:
    a, b = normalise(first), normalise(second)
    assert same_but_formatting(a, a)
    assert same_but_formatting(a, b) == same_but_formatting(b, a)
    if same_but_formatting(a, b):
        assert formatting_key(a) == formatting_key(b)


def test_a_bracketed_domain_a_spelt_out_trademark_or_a_lost_space_is_formatting() -> None:
    """Nine changes were "reworded" where only typography changed: 903.1's <MTGCommander.net>
    (2014-02-01, and back in 2014-05-01), the Oracle entry's <Gatherer.Wizards.com>, 107.9's
    "_Odyssey_(TM)" -> "_Odyssey_TM" (2011-07-15), Hideaway's "See rule702.72" (2009-09-04).
    The texts as the captures print them."""
    pairs = [
        (
            "additional resources at <MTGCommander.net>. The Commander variant uses",
            "additional resources at MTGCommander.net. The Commander variant uses",
        ),
        (
            "found using the Gatherer card database at <Gatherer.Wizards.com>.",
            "found using the Gatherer card database at Gatherer.Wizards.com.",
        ),
        ("the name of many _Odyssey_(TM) block cards", "the name of many _Odyssey_TM block cards"),
        ("Use the Oracle (TM) card reference", "Use the Oracle\u2122 card reference"),
        (
            'store a secret card. See rule702.72, "Hideaway."',
            'store a secret card. See rule 702.72, "Hideaway."',
        ),
    ]
    for old, new in pairs:
        assert same_but_formatting(normalise(old), normalise(new)), (old, new)
    # a word that ends so, or a number after a word, is still a word
    assert not same_but_formatting(normalise("an ATM card"), normalise("an card"))
    assert not same_but_formatting(normalise("the rules 702.72"), normalise("the rule 702.72"))
