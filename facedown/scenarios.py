"""The scenarios: questions from the seed documents, each with its expected answer per era.

An `Expect` gives the answer a source states and the first release it holds for (the answer
holds until the next `Expect`). Where the archived rules text says something else than the
source, `text_says` records what the text decides and `finding` why: those are documented
findings, not failures, and the tests check the text's answer there.

Sources (in ../shared/seeds/ beside the checkout):
- FAQ 2002: Wizards, "Morph: Onslaught's New Ability" (Barclay, 2002-09-06), with 502.26, 504.
- CK 2008: Crystal Keep rule 504 page, March 2008, each clause dated by the CR it came from.
- Wiki 2020: MTG Wiki "Face down", quoting CR 707 of January 2020.
- Wiki 2024: MTG Wiki "Face-down", quoting CR 708 of June 2024, with rulings.
- Gatherer 2019: rulings of 2019-11-12 for a card with spellmorph.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from facedown import model
from facedown.characteristics import Characteristics
from facedown.era import Era
from facedown.model import NOT_STATED, Ruling

# The sources as a reader knows them (shown on the examples page and beside each clause);
# the seed files they were read from are listed above and in ../shared/seeds/README.md.
FAQ = "Onslaught morph FAQ (Wizards, 2002)"
RULES_2002 = "CR 502.26 and 504 as printed in the Onslaught morph article (Wizards, 2002)"
CK = "Crystal Keep rulings on rule 504 (March 2008)"
WIKI_2020 = "MTG Wiki, “Face down” (CR 707 of January 2020)"
WIKI_2024 = "MTG Wiki, “Face-down” (CR 708 of June 2024)"
GATHERER = "Gatherer rulings on spellmorph (November 2019)"

TEZZERET = Characteristics(5, 5, "artifact creature", frozenset(), None, None, False)


@dataclass(frozen=True)
class Expect:
    since: str  # first release this answer holds for
    answer: str
    source: str
    text_says: str | None = None  # what the archived text decides, when it differs
    finding: str | None = None


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    mechanic: tuple[str, ...]  # every one must exist in a release for the scenario to apply
    rules: str  # the rules it turns on, as numbered over the years
    ask: Callable[[Era], Ruling]
    expect: tuple[Expect, ...]
    since: str | None = None  # a card's first appearance, when the scenario needs that card

    def applies(self, era: Era) -> bool:
        if self.since and era.release < self.since:
            return False
        return all(name in era.mechanics for name in self.mechanic)

    def expected(self, release: str) -> Expect:
        current = self.expect[0]
        for step in self.expect:
            if step.since <= release:
                current = step
        return current

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "mechanic": list(self.mechanic),
            "rules": self.rules,
            "since": self.since,
            "expect": [step.__dict__ for step in self.expect],
            "sources": sorted({step.source for step in self.expect}),
        }


def _only(answer: str, source: str, since: str = "0000") -> tuple[Expect, ...]:
    return (Expect(since, answer, source),)


MORPH_2002 = "2002-10-07"

SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        "morph-pt",
        "Cast a morph creature face down: its power and toughness",
        ("morph",),
        "502.26b / 702.3xb-c",
        lambda era: _pt(model.characteristics(era, "morph")),
        _only("2/2", f"{FAQ}; {GATHERER}"),
    ),
    Scenario(
        "morph-mana-cost",
        "The mana cost of a face-down morph spell",
        ("morph",),
        "502.26a-b / 702.3xa-c",
        lambda era: _mana_cost(model.characteristics(era, "morph")),
        (
            Expect(MORPH_2002, "{0}", f"{FAQ}: 'Their mana cost is 0'; {RULES_2002}"),
            Expect("2006-10-01", "no mana cost", f"{GATHERER}: 'no name, mana cost'; {WIKI_2020}"),
        ),
    ),
    Scenario(
        "morph-expansion-symbol",
        "Does the morph rule list 'no expansion symbol' among the face-down characteristics?",
        ("morph",),
        "502.26a / 702.3xa",
        lambda era: _expansion_symbol(model.characteristics(era, "morph")),
        (
            Expect(MORPH_2002, "no expansion symbol", RULES_2002),
            Expect("2013-07-11", "not listed", f"{WIKI_2020} (707.2a lists no expansion symbol)"),
        ),
    ),
    Scenario(
        "morph-cost",
        "The cost to play (cast) a morph card face down",
        ("morph",),
        "502.26a / 702.34a / 702.35a / 702.36a / 702.37a",
        model.morph_cost,
        _only("{3}", f"{FAQ}: 'you pay 3 to play it'; {RULES_2002}; {GATHERER}"),
    ),
    Scenario(
        "pump-then-turn-up",
        "A face-down 2/2 gets +3/+3 until end of turn, then turns face up as a 4/3",
        ("morph",),
        "504.5 / 707.8 / 708.8",
        lambda era: model.turn_face_up_pt(era, (4, 3), (3, 3)),
        _only("7/6", f"{FAQ}: 'the result will be a 7/6 creature'"),
    ),
    Scenario(
        "changes-stay",
        "A face-down creature is made red and a Zombie, then turns face up",
        ("morph",),
        "504.5 / 707.8 / 708.8",
        model.changes_stay,
        _only("still red and a Zombie", f"{FAQ} (Unnatural Selection, Tidal Visionary)"),
    ),
    Scenario(
        "counters-auras-stay",
        "A +1/+1 counter and an Aura on a face-down creature that turns face up",
        ("morph",),
        "504.5 / 707.8 / 708.8",
        model.counters_and_auras_stay,
        _only("they stay", f"{FAQ}; {WIKI_2020}"),
    ),
    Scenario(
        "no-etb-on-turn-up",
        "A creature with an enters-the-battlefield trigger is turned face up",
        ("morph",),
        "502.26d / 504.5 / 702.3xd-e / 707.8 / 708.8",
        model.enters_trigger_on_turn_up,
        _only("no trigger", f"{RULES_2002}; {WIKI_2024} rulings"),
    ),
    Scenario(
        "status-on-turn-up",
        "Summoning sickness and tapped state of a creature turned face up",
        ("morph",),
        "504.5 / 707.8 / 708.8 (and status 110.5)",
        model.status_on_turn_up,
        _only("unchanged", f"{FAQ}: 'Not unless it was sick when it was face-down'; {WIKI_2024}"),
    ),
    Scenario(
        "turn-up-no-stack",
        "Can the opponent respond to turning a face-down creature face up?",
        ("morph",),
        "502.26a / 702.3xd-e (special action)",
        model.turn_up_uses_stack,
        _only("doesn't use the stack", f"{FAQ}: 'doesn't use the stack'"),
    ),
    Scenario(
        "turn-up-spell",
        "Can a face-down spell on the stack be turned face up?",
        ("morph",),
        "504.3 / 707.7 / 708.7",
        model.turn_up_spell,
        _only("no", f"{FAQ}: 'you can't turn face-down spells on the stack face up'"),
    ),
    Scenario(
        "face-down-has-morph",
        "Does a face-down creature have the morph ability?",
        ("morph",),
        "502.26b / 702.3xb-c",
        model.has_morph_ability,
        _only("no", f"{FAQ}: 'Face-down creatures don't have any abilities'"),
    ),
    Scenario(
        "copy-face-down",
        "A creature becomes a copy of a face-down creature (Clone)",
        ("morph",),
        "503.2 / 504.2 / 706.2 / 707.2",
        model.copy_of_face_down,
        (
            Expect(
                MORPH_2002,
                "2/2 creature with no name and no text",
                f"{FAQ}: 'a face-up 2/2 colorless, nameless, typeless creature'",
                text_says="a copy of the face-up card (its printed values)",
                finding=(
                    "The 2002 FAQ answers 2/2, but CR 503.2 of 2002-10-07 and 2003-03-15 has a "
                    "copy acquire the 'printed values' of the permanent, and 504.2 calls the "
                    "face-down values 'initial characteristics', not printed ones: by the text, "
                    "a copy gets the face-up card. 2003-07-01 introduced 'copiable values' "
                    "'plus any values set for face-down spells or permanents' (503.2, 504.2)."
                ),
            ),
            Expect(
                "2003-07-01",
                "2/2 creature with no name and no text",
                f"{CK} 504.2; {GATHERER}; {WIKI_2020}",
            ),
        ),
    ),
    Scenario(
        "copy-turn-up",
        "Can the copy of a face-down creature be turned face up?",
        ("morph",),
        "502.26a / 702.3xd-e; 706.2 / 707.2 (status is not copied)",
        model.turn_up_copy,
        _only("no", f"{FAQ}: 'It does not have morph and cannot be turned into something else'"),
    ),
    Scenario(
        "face-down-becomes-copy",
        "A face-down permanent becomes a copy of another permanent",
        ("morph",),
        "504.7 / 707.10 / 708.10",
        model.face_down_becomes_copy,
        (
            Expect(MORPH_2002, NOT_STATED, f"{RULES_2002} (504.1-6 have no such rule)"),
            Expect(
                "2006-05-01",
                "stays a face-down 2/2; face up it is the copied permanent",
                f"{CK} 504.7 [CompRules 2006/05/01]",
            ),
        ),
    ),
    Scenario(
        "turn-face-down-again",
        "A spell tries to turn face down a permanent that already is face down",
        ("morph",),
        "708.2b",
        model.turn_face_down_again,
        (
            Expect(MORPH_2002, NOT_STATED, f"{WIKI_2020} (707.2 has no 707.2b)"),
            Expect("2023-10-13", "nothing happens", f"{WIKI_2024} 708.2b"),
        ),
    ),
    Scenario(
        "who-may-look",
        "Who may look at a face-down creature?",
        ("morph",),
        "504.3 / 707.5 / 708.5",
        model.who_may_look,
        _only("controller: yes; opponents: no", f"{FAQ}; {WIKI_2024} rulings"),
    ),
    Scenario(
        "look-phased-out",
        "May you look at your face-down creature while it is phased out?",
        ("morph",),
        "504.3 / 707.5 / 708.5",
        model.look_phased_out,
        (
            Expect(
                MORPH_2002,
                "no",
                f"{RULES_2002} 504.3: 'can't look at face-down cards in any "
                "other zone' (phased-out was a zone)",
            ),
            Expect("2005-08-01", "yes", f"{CK} 504.3 [CompRules 2005/08/01]; {WIKI_2020} 707.5"),
        ),
    ),
    Scenario(
        "gained-control",
        "You gain control of an opponent's face-down creature",
        ("morph",),
        "504.3 / 707.5 / 708.5; 502.26d / 702.3xd-e",
        model.gained_control,
        _only("yes: look and turn it face up", f"{FAQ}: 'Yes. As long as you control it'"),
    ),
    Scenario(
        "reveal-leaves-battlefield",
        "You return an opponent's face-down creature to their hand",
        ("morph",),
        "504.6 / 707.9 / 708.9",
        lambda era: model.revealed(era, "leaves the battlefield"),
        _only("revealed", f"{FAQ}; {GATHERER}"),
    ),
    Scenario(
        "reveal-countered",
        "A face-down creature spell is countered",
        ("morph",),
        "504.6 / 707.9 / 708.9",
        lambda era: model.revealed(era, "countered"),
        _only("revealed", f"{RULES_2002} 504.6; {GATHERER}"),
    ),
    Scenario(
        "reveal-game-ends",
        "The game ends with face-down creatures on the battlefield",
        ("morph",),
        "504.6 / 707.9 / 708.9",
        lambda era: model.revealed(era, "game ends"),
        _only("revealed", f"{FAQ}: 'At the end of the game, any face-down creatures ... revealed'"),
    ),
    Scenario(
        "reveal-player-leaves",
        "A player leaves a multiplayer game owning face-down permanents",
        ("morph",),
        "707.9 / 708.9",
        lambda era: model.revealed(era, "player leaves"),
        (
            Expect(MORPH_2002, NOT_STATED, f"{CK} 504.6 (only the end of the game)"),
            Expect("2014-06-01", "revealed", f"{GATHERER}: 'if you leave the game'; {WIKI_2020}"),
        ),
    ),
    Scenario(
        "meddling-mage",
        "Meddling Mage names Blistering Firecat: can you still cast it face down?",
        ("morph",),
        "504.2 / 601.5a / 702.3xb-c / 707.4 / 708.4",
        model.prohibited_face_up,
        _only("yes, face down", f"{FAQ}: 'You can play the spell face down, but not face up'"),
    ),
    Scenario(
        "returns-face-up",
        "Faceless Butcher exiles a face-down creature; the Butcher leaves: how does it return?",
        ("morph",),
        "501.3 / 510.3 / 214.5 / 110.6b / 110.5b",
        model.returns_face_up,
        (
            Expect(
                MORPH_2002,
                "face up",
                f"{FAQ}: 'the face-up creature will return to play. Face up.'",
                text_says=NOT_STATED,
                finding=(
                    "No rule before 2006-05-01 says that permanents come into play face up by "
                    "default; the FAQ's answer rests on no text until 501.3 (then 510.3, 214.5, "
                    "110.6b, 110.5b) was written."
                ),
            ),
            Expect("2006-05-01", "face up", f"{GATHERER}: 'that effect returns the card face up'"),
        ),
    ),
    Scenario(
        "megamorph-turn-up",
        "A megamorph creature (face up a 4/3) is turned face up for its megamorph cost",
        ("megamorph",),
        "702.36b / 702.37b",
        lambda era: model.megamorph_turn_up(era, (4, 3)),
        _only("5/4", f"{WIKI_2020} (megamorph); CR 702.36b: a +1/+1 counter as it turns face up"),
    ),
    Scenario(
        "manifest-turn-up",
        "Which manifested cards can be turned face up, and for what?",
        ("manifest",),
        "701.31b / 701.32b / 701.33b / 701.34b / 701.40b",
        model.manifested_turn_up,
        _only("creature card: for its mana cost; other cards: no", f"{WIKI_2020}; {WIKI_2024}"),
    ),
    Scenario(
        "manifest-instant",
        "Something tries to turn face up a manifested instant or sorcery card",
        ("manifest",),
        "701.31e / 701.33f / 701.34g / 701.40g",
        model.manifested_spell_card_turn_up,
        _only("revealed, stays face down", f"{GATHERER}; {WIKI_2024} rulings"),
    ),
    Scenario(
        "manifest-dread",
        "The characteristics of a card manifested by manifest dread",
        ("manifest dread",),
        "701.60a / 701.62a -> 701.34a / 701.40a",
        lambda era: model.characteristics(era, "manifest dread"),
        _only(
            "2/2 creature; no text, no name, no subtypes; no mana cost",
            f"{WIKI_2024}: a 2/2; only disguise and cloak add ward 2",
        ),
    ),
    Scenario(
        "disguise-ward",
        "A creature cast face down with disguise",
        ("disguise",),
        "702.168a-b",
        lambda era: model.characteristics(era, "disguise"),
        _only(
            "2/2 creature; ward {2}; no name, no subtypes; no mana cost",
            f"{WIKI_2024}: 'Disguise and Cloak also grant ward 2'",
        ),
    ),
    Scenario(
        "cloak-ward",
        "A card put onto the battlefield by cloak",
        ("cloak",),
        "701.56a / 701.58a",
        lambda era: model.characteristics(era, "cloak"),
        _only(
            "2/2 creature; ward {2}; no name, no subtypes; no mana cost",
            f"{WIKI_2024}: 'Disguise and Cloak also grant ward 2'",
        ),
    ),
    Scenario(
        "ixidron",
        "Ixidron turns a face-up non-morph creature face down",
        ("face-down",),
        "502.26e / 707.2a / 708.2a",
        lambda era: model.characteristics(era, "turned face down"),
        (
            Expect(
                "2006-10-01",
                "2/2 creature; no text, no name, no subtypes, no expansion symbol; no mana cost",
                f"{CK} 504.1 names Ixidron; 502.26e of that era",
            ),
            Expect(
                "2013-07-11",
                "2/2 creature; no text, no name, no subtypes; no mana cost",
                f"{WIKI_2020} 707.2a",
            ),
        ),
        since="2006-10-01",
    ),
    Scenario(
        "illusionary-mask",
        "A creature put into play face down by Illusionary Mask: what do the rules make it?",
        ("face-down",),
        "504.2 / 707.2 / 707.2a / 708.2a",
        lambda era: model.enters_face_down(era, None),
        (
            Expect("2001-07-23", "0/1 creature", f"{WIKI_2020}: 'Originally ... 0/1 creatures'"),
            Expect(
                MORPH_2002,
                "as listed by the card",
                f"{RULES_2002} 504.2 ('listed by the card'); {FAQ}: Mask errata coming",
            ),
            Expect("2014-09-26", "2/2 creature", f"{WIKI_2020} 707.2a: enters face down"),
        ),
    ),
    Scenario(
        "tezzeret",
        "Tezzeret, Cruel Machinist puts cards onto the battlefield face down as 5/5 artifacts",
        ("face-down",),
        "707.2 / 707.2a / 708.2a",
        lambda era: model.enters_face_down(era, TEZZERET),
        (
            Expect(
                "2015-07-17",
                "5/5 artifact creature",
                f"{WIKI_2020}: 'Tezzeret ... are 5/5 artifact creatures'",
                text_says="2/2 creature",
                finding=(
                    "From 2014-09-26 to 2018-06-08, 707.2a said that a permanent entering the "
                    "battlefield face down (not cast face down) 'also has these characteristics' "
                    "(2/2), with no exception, contradicting Tezzeret (printed 2015-07-17) and "
                    "707.2; 2018-07-13 added 'unless otherwise specified by the effect'."
                ),
            ),
            Expect("2018-07-13", "5/5 artifact creature", f"{WIKI_2020} 707.2a"),
        ),
        since="2015-07-17",
    ),
)

BY_ID = {scenario.id: scenario for scenario in SCENARIOS}


def _pt(ruling: Ruling) -> Ruling:
    listed = ruling.characteristics
    return Ruling(listed.pt if listed else NOT_STATED, ruling.cites)


def _mana_cost(ruling: Ruling) -> Ruling:
    listed = ruling.characteristics
    if listed is None:
        return Ruling(NOT_STATED, ruling.cites)
    return Ruling(listed.mana_cost or "no mana cost", ruling.cites)


def _expansion_symbol(ruling: Ruling) -> Ruling:
    listed = ruling.characteristics
    if listed is None:
        return Ruling(NOT_STATED, ruling.cites)
    lacks = "expansion symbol" in listed.lacks
    return Ruling("no expansion symbol" if lacks else "not listed", ruling.cites)
