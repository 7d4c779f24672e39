"""Read the characteristics a rule lists for a face-down object out of its sentence.

The CR words them differently over the years ("0/1 colorless creatures with no name, creature
type, expansion symbol, or abilities, and a mana cost of 0"; "a 2/2 face-down creature, with no
text, no name, no subtypes, no expansion symbol, and a mana cost of {o0}"; "a 2/2 face-down
creature card with ward {2}, no name, no subtypes, and no mana cost"); this reads them all into
one shape, so an era's answer comes from its own words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LISTED = re.compile(
    r"(?P<p>\d+)/(?P<t>\d+) (?P<adjectives>(?:[a-z]+ )*?)(?:face-down )?"
    r"(?P<kind>(?:artifact )?creatures?)(?: card| spell)?,? (?P<rest>with [^.]*?)"
    r"(?= by paying|\.|\)|$)"
)
# What each listed absence is called today, whatever the wording of its era.
ABSENCE_NAMES = {
    "text": "text",
    "rules text": "text",
    "abilities": "text",
    "name": "name",
    "subtypes": "subtypes",
    "creature type": "subtypes",
    "creature types": "subtypes",
    "expansion symbol": "expansion symbol",
    "mana cost": "mana cost",
}
ORDER = ("text", "name", "subtypes", "expansion symbol")


@dataclass(frozen=True)
class Characteristics:
    """A face-down object's characteristics as one rule lists them."""

    power: int
    toughness: int
    kind: str  # "creature" or "artifact creature"
    lacks: frozenset[str]  # text, name, subtypes, expansion symbol
    mana_cost: str | None  # "{0}" when the rule gives one; None for "no mana cost"
    ward: str | None  # "{2}" for disguise and cloak
    colorless: bool  # stated outright (the 2001 rule did; later it follows from no cost)

    @property
    def pt(self) -> str:
        return f"{self.power}/{self.toughness}"

    def summary(self) -> str:
        """One line, e.g. '2/2 creature; no text, no name, no subtypes; no mana cost'.

        >>> read_characteristics("a 2/2 face-down creature with ward {2}, no name, "
        ...     "no subtypes, and no mana cost.").summary()
        '2/2 creature; ward {2}; no name, no subtypes; no mana cost'
        """
        parts = [f"{self.pt} {'colorless ' if self.colorless else ''}{self.kind}"]
        if self.ward:
            parts.append(f"ward {self.ward}")
        missing = [f"no {name}" for name in ORDER if name in self.lacks]
        if missing:
            parts.append(", ".join(missing))
        parts.append(f"mana cost {self.mana_cost}" if self.mana_cost else "no mana cost")
        return "; ".join(parts)


def mana(symbol_text: str) -> str:
    """'0', '{o0}' and '{0}' -> '{0}'.

    >>> mana("{o0}"), mana("0"), mana("{3}")
    ('{0}', '{0}', '{3}')
    """
    digits = re.sub(r"[{}o]", "", symbol_text.strip())
    return "{" + digits + "}"


def read_characteristics(sentence: str) -> Characteristics | None:
    """The characteristics listed in `sentence`, or None if it lists none.

    >>> c = read_characteristics("Creatures that are in play face down are 0/1 colorless "
    ...     "creatures with no name, creature type, expansion symbol, or abilities, and a "
    ...     "mana cost of 0.")
    >>> c.summary()
    '0/1 colorless creature; no text, no name, no subtypes, no expansion symbol; mana cost {0}'
    """
    match = LISTED.search(sentence)
    if match is None:
        return None
    lacks: set[str] = set()
    mana_cost: str | None = None
    ward: str | None = None
    negated = False
    items = re.split(r",\s*(?:and |or )?|\s+and\s+|\s+or\s+", match["rest"][len("with ") :])
    for raw in items:
        item = raw.strip()
        if not item:
            continue
        if cost := re.match(r"a mana cost of (\{?o?\w+\}?)", item):
            mana_cost, negated = mana(cost[1]), False
        elif shield := re.match(r"ward (\{[^}]+\})", item):
            ward, negated = shield[1], False
        elif item.startswith("no "):
            negated = True
            lacks.add(ABSENCE_NAMES.get(item[3:], item[3:]))
        elif negated:  # "no name, creature type, ... or abilities": the "no" carries on
            lacks.add(ABSENCE_NAMES.get(item, item))
    kind = "artifact creature" if match["kind"].startswith("artifact") else "creature"
    if "mana cost" in lacks:
        lacks.discard("mana cost")
        mana_cost = None
    return Characteristics(
        power=int(match["p"]),
        toughness=int(match["t"]),
        kind=kind,
        lacks=frozenset(lacks),
        mana_cost=mana_cost,
        ward=ward,
        colorless="colorless" in match["adjectives"],
    )
