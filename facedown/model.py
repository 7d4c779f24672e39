"""Face-down objects and the actions on them, each answered from one release's own text.

Every function takes an `Era` and returns a `Ruling`: the outcome in a few words and the
clause numbers of that release that decide it. Nothing here knows a date or a rule number:
the answer changes only when the words of the release change. Where a release says nothing
on the point, the outcome is `NOT_STATED`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from facedown.characteristics import Characteristics, read_characteristics
from facedown.era import Clause, Era

NOT_STATED = "not stated"
# How the rules have said "enters the battlefield" over the years.
ENTERS = r"(?:come into play|comes into play|enters? the battlefield)"
ALREADY = r"has already (?:come into play|entered the battlefield)"


@dataclass(frozen=True)
class Ruling:
    outcome: str
    cites: tuple[Clause, ...] = ()  # the clauses it rests on (a record keeps their numbers)
    detail: str = ""
    characteristics: Characteristics | None = field(default=None, compare=False)


def _cites(*clauses: Clause | None) -> tuple[Clause, ...]:
    seen: list[Clause] = []
    for clause in clauses:
        if clause is not None and all(c.number != clause.number for c in seen):
            seen.append(clause)
    return tuple(seen)


def _face_down(era: Era) -> list[Clause]:
    return era.rules_of("face-down")


def listed_only(era: Era) -> Clause | None:
    """504.2 / 707.2 / 708.2: a face-down object has only the listed characteristics."""
    return era.first(r"no characteristics other than those listed", _face_down(era))


# -- characteristics ---------------------------------------------------------------------

CHARACTERISTICS_RULE = {
    # how a card became face down -> (mechanic whose rules list it, the sentence that does)
    "morph": ("morph", r"using its morph ability|To (?:play|cast) a spell using its morph"),
    "megamorph": ("megamorph", r"^Megamorph"),
    "disguise": ("disguise", r"using its disguise ability"),
    "manifest": ("manifest", r"^To manifest a card"),
    "cloak": ("cloak", r"^To cloak a card"),
}


def characteristics(era: Era, how: str) -> Ruling:
    """The face-down characteristics an object gets from `how` (morph, manifest, ...)."""
    if how == "manifest dread":
        dread = era.first(r"Manifest one of them", era.rules_of("manifest dread"))
        inner = characteristics(era, "manifest")
        return Ruling(
            inner.outcome, _cites(dread) + inner.cites, characteristics=inner.characteristics
        )
    if how == "turned face down":
        pool = _face_down(era) + era.rules_of("morph")
        clause = era.first(r"face-up permanent (?:with morph )?is turned face down", pool)
    else:
        mechanic, pattern = CHARACTERISTICS_RULE[how]
        clause = era.first(pattern, era.rules_of(mechanic))
    listed = read_characteristics(clause.text) if clause else None
    if clause is None or listed is None:
        return Ruling(NOT_STATED)
    return Ruling(listed.summary(), _cites(clause, listed_only(era)), characteristics=listed)


def enters_face_down(era: Era, card_lists: Characteristics | None) -> Ruling:
    """A card put onto the battlefield face down by an effect (Illusionary Mask, Tezzeret).

    `card_lists` is what the card itself lists (None when it lists nothing). The rules may
    give a default that applies anyway, a default "unless otherwise specified", or none.
    """
    default = era.first(rf"{ENTERS} face down|in play face down", _face_down(era))
    listed = read_characteristics(default.text) if default else None
    if default is not None and listed is not None:
        if card_lists is not None and "unless otherwise specified" in default.text:
            return Ruling(
                _short(card_lists), _cites(default, listed_only(era)), "as the card lists"
            )
        return Ruling(_short(listed), _cites(default), "the rules' default", listed)
    rule = listed_only(era)
    if rule is None:
        return Ruling(NOT_STATED)
    if card_lists is None:
        return Ruling("as listed by the card", _cites(rule))
    return Ruling(_short(card_lists), _cites(rule), "as the card lists", card_lists)


def _short(listed: Characteristics) -> str:
    return f"{listed.pt} {listed.kind}"


def morph_cost(era: Era) -> Ruling:
    """What you pay to cast (play) a morph card face down, and the verb the rule uses."""
    clause = era.first(r"Morph \[cost\]. means", era.rules_of("morph"))
    if clause is None:
        return Ruling(NOT_STATED)
    paid = re.search(r"by paying (\{?o?\d+\}?)", clause.text)
    verb = re.search(r"You may (play|cast) this card", clause.text)
    if paid is None:
        return Ruling(NOT_STATED, _cites(clause))
    cost = "{" + re.sub(r"[{}o]", "", paid[1]) + "}"
    return Ruling(cost, _cites(clause), f"you may {verb[1] if verb else '?'} it face down")


# -- turning face up -----------------------------------------------------------------------


def _turn_up_rule(era: Era, mechanic: str = "morph") -> Clause | None:
    return era.first(r"pay that cost, then turn the permanent face up", era.rules_of(mechanic))


def effects_stay(era: Era) -> Clause | None:
    return era.first(
        r"effects that have been applied to the face-down permanent still apply", _face_down(era)
    )


def turn_face_up_pt(era: Era, face_up: tuple[int, int], pump: tuple[int, int]) -> Ruling:
    """A face-down creature gets +X/+Y, then turns face up: its power and toughness."""
    stays = effects_stay(era)
    if stays is None:
        return Ruling(NOT_STATED, _cites(_turn_up_rule(era)))
    power, toughness = face_up[0] + pump[0], face_up[1] + pump[1]
    return Ruling(f"{power}/{toughness}", _cites(stays, _turn_up_rule(era)))


def changes_stay(era: Era) -> Ruling:
    """A face-down creature was made red and a Zombie; it turns face up."""
    stays = effects_stay(era)
    if stays is None:
        return Ruling(NOT_STATED)
    return Ruling("still red and a Zombie", _cites(stays))


def counters_and_auras_stay(era: Era) -> Ruling:
    """A +1/+1 counter and an Aura on a face-down creature that turns face up."""
    same = era.find(ALREADY, _face_down(era))
    stays = effects_stay(era)
    if not same:
        return Ruling(NOT_STATED)
    return Ruling("they stay", _cites(*same, stays))


def enters_trigger_on_turn_up(era: Era) -> Ruling:
    """Does a comes-into-play / enters-the-battlefield ability trigger on turning face up?"""
    pattern = r"abilities relating to the permanent (?:coming into play|entering the battlefield)"
    found = era.find(pattern, _face_down(era) + era.rules_of("morph"))
    if not found:
        return Ruling(NOT_STATED)
    return Ruling("no trigger", _cites(*found))


def status_on_turn_up(era: Era) -> Ruling:
    """Summoning sickness and tapped state after a creature turns face up."""
    same = era.find(ALREADY, _face_down(era))
    if not same:
        return Ruling(NOT_STATED)
    status = era.first(r"status categories.*tapped/untapped.*face up/face down", era.facing())
    return Ruling("unchanged", _cites(*same, status))


def turn_up_uses_stack(era: Era) -> Ruling:
    clause = era.first(r"(?:does not|doesn.t) use the stack", era.rules_of("morph"))
    if clause is None:
        return Ruling(NOT_STATED)
    return Ruling("doesn't use the stack", _cites(clause))


def turn_up_spell(era: Era) -> Ruling:
    """Can a face-down spell on the stack be turned face up?"""
    clause = era.first(r"Spells normally can.t be turned face up", _face_down(era))
    return Ruling("no", _cites(clause)) if clause else Ruling(NOT_STATED)


def has_morph_ability(era: Era) -> Ruling:
    """Does a face-down creature have the morph ability?"""
    ruling = characteristics(era, "morph")
    listed = ruling.characteristics
    if listed is None:
        return Ruling(NOT_STATED)
    return Ruling("no" if "text" in listed.lacks else "yes", ruling.cites)


def megamorph_turn_up(era: Era, face_up: tuple[int, int]) -> Ruling:
    """A megamorph creature turned face up for its megamorph cost."""
    clause = era.first(r"put a \+1/\+1 counter on it", era.rules_of("megamorph"))
    if clause is None:
        return Ruling(NOT_STATED)
    return Ruling(f"{face_up[0] + 1}/{face_up[1] + 1}", _cites(clause, _turn_up_rule(era)))


def manifested_turn_up(era: Era) -> Ruling:
    """Which manifested cards can be turned face up, and for what."""
    pool = era.rules_of("manifest")
    rule = era.first(r"turn a manifested permanent you control face up", pool)
    if rule is None:
        return Ruling(NOT_STATED)
    creature_only = re.search(r"isn.t a creature card.*can.t be turned face up", rule.text)
    by_mana = "mana cost" in rule.text
    outcome = ("creature card: for its mana cost" if by_mana else "creature card: yes") + (
        "; other cards: no" if creature_only else ""
    )
    return Ruling(outcome, _cites(rule))


def manifested_spell_card_turn_up(era: Era) -> Ruling:
    """Something tries to turn face up a manifested instant or sorcery card."""
    clause = era.first(r"instant or sorcery card would turn face up", era.rules_of("manifest"))
    if clause is None:
        return Ruling(NOT_STATED)
    return Ruling("revealed, stays face down", _cites(clause))


# -- copies --------------------------------------------------------------------------------


def copy_of_face_down(era: Era) -> Ruling:
    """Another creature becomes (or a token is created as) a copy of a face-down creature."""
    copy_rules = era.rules_of("copy")
    face_down_values = era.first(
        r"(?:values set for|by its) face-down|abilities that caused the object to be face down",
        copy_rules,
    ) or era.first(r"listed characteristics are the copiable values", _face_down(era))
    printed = era.first(r"acquires the printed values", copy_rules)
    if face_down_values is not None:
        listed = characteristics(era, "morph").characteristics
        if listed is None:
            return Ruling(NOT_STATED, _cites(face_down_values))
        missing = " and ".join(f"no {n}" for n in ("name", "text") if n in listed.lacks)
        return Ruling(f"{listed.pt} {listed.kind} with {missing}", _cites(face_down_values))
    if printed is not None:
        return Ruling("a copy of the face-up card (its printed values)", _cites(printed))
    return Ruling(NOT_STATED)


def turn_up_copy(era: Era) -> Ruling:
    """Can that copy of a face-down creature be turned face up?"""
    rule = era.first(
        r"turn (?:a|any) face-down permanent you control (?:with an? \w+ ability )?face up|"
        r"morph cost (?:for|of) any face-down permanent",
        era.rules_of("morph"),
    )
    if rule is None:
        return Ruling(NOT_STATED)
    status = era.first(
        r"status(?:, and counters)? (?:are|is) not copied|as modified by the copy.s status",
        era.rules_of("copy"),
    )
    return Ruling("no", _cites(rule, status))


def face_down_becomes_copy(era: Era) -> Ruling:
    clause = era.first(r"If a face-down permanent becomes a copy", _face_down(era))
    if clause is None:
        return Ruling(NOT_STATED)
    return Ruling("stays a face-down 2/2; face up it is the copied permanent", _cites(clause))


def turn_face_down_again(era: Era) -> Ruling:
    clause = era.first(
        r"face-down permanent can.t be turned face.down|"
        r"attempts to turn a face-down permanent face down, nothing happens",
        _face_down(era),
    )
    return Ruling("nothing happens", _cites(clause)) if clause else Ruling(NOT_STATED)


# -- looking and revealing -----------------------------------------------------------------


def _look_rule(era: Era) -> Clause | None:
    return era.first(r"you may look at a face-down", _face_down(era))


def who_may_look(era: Era) -> Ruling:
    rule = _look_rule(era)
    if rule is None:
        return Ruling(NOT_STATED)
    mine = "you control" in rule.text
    others = re.search(r"can.t look at .*controlled by another player", rule.text)
    outcome = f"controller: {'yes' if mine else '?'}; opponents: {'no' if others else '?'}"
    return Ruling(outcome, _cites(rule))


def look_phased_out(era: Era) -> Ruling:
    """May you look at your face-down permanent while it is phased out?"""
    rule = _look_rule(era)
    if rule is None:
        return Ruling(NOT_STATED)
    allowed = re.search(r"phased.out zone you controlled|even if it.s phased out", rule.text)
    if allowed:
        return Ruling("yes", _cites(rule))
    if re.search(r"can.t look at face-down cards in any other zone", rule.text):
        return Ruling("no", _cites(rule))
    return Ruling(NOT_STATED, _cites(rule))


def gained_control(era: Era) -> Ruling:
    """You gain control of an opponent's face-down creature: may you look and turn it up?"""
    look = _look_rule(era)
    turn = era.first(
        r"face-down permanent you control (?:with an? \w+ ability )?face up|"
        r"morph cost (?:for|of) any face-down permanent you control",
        era.rules_of("morph"),
    )
    if look is None or turn is None or "you control" not in look.text:
        return Ruling(NOT_STATED)
    return Ruling("yes: look and turn it face up", _cites(look, turn))


REVEAL_WHEN = {
    "leaves the battlefield": (
        r"face-down permanent .*moves from the (?:in-play zone|battlefield) to any"
    ),
    "countered": r"face-down spell moves from the stack to any zone other than",
    "game ends": r"At the end of each game, all face-down",
    "player leaves": r"If a player leaves the game, all face-down",
}


def revealed(era: Era, when: str) -> Ruling:
    clause = era.first(REVEAL_WHEN[when], _face_down(era))
    return Ruling("revealed", _cites(clause)) if clause else Ruling(NOT_STATED)


def returns_face_up(era: Era) -> Ruling:
    """A face-down creature is exiled (Faceless Butcher) and returns: face up or down?"""
    clause = era.first(rf"{ENTERS} untapped, unflipped, (?:and )?face up", era.facing())
    return Ruling("face up", _cites(clause)) if clause else Ruling(NOT_STATED)


def prohibited_face_up(era: Era) -> Ruling:
    """Meddling Mage names the card: can it still be cast face down?"""
    found = era.find(
        r"effects that care about the characteristics of a spell will see only the face-down"
        r"|prohibitions that would apply to (?:playing|casting) (?:an object|a card) with these"
        r"|prohibited from being cast to be cast face down",
        era.facing(),
    )
    if not found:
        return Ruling(NOT_STATED)
    return Ruling("yes, face down", _cites(*found))
