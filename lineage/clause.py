"""The clauses an alignment compares: chapters, sections, rules, subrules and glossary
entries of one release, as plain rows (`Clause`), and which of them are headings.

A rule's examples are not clauses of their own: they follow their rule, and their text is
part of its wording (`joined_examples`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

ALIGNED_KINDS = ("chapter", "section", "rule", "subrule", "glossary")
GROUP = {"chapter": "chapter", "section": "section", "rule": "rule", "subrule": "rule"}
GROUP["glossary"] = "glossary"
NEAR = 4  # how many positions around a clause count as its neighbourhood
HEADING_WORDS = 6  # a rule whose text is a title ("Artifacts", "General") is a heading


@dataclass(slots=True)
class Clause:
    part_id: int
    kind: str
    number: str | None
    parent: str | None
    title: str | None
    version_hash: str  # the same exactly when the text is (see `clause_versions`)
    normalised: str
    position: int
    examples: str = ""  # the normalised text of the rule's examples, one a line
    # their versions, in order: the same exactly when their texts are, typography included
    # (`kind_of_change` names a change of their typography alone `formatting`)
    example_versions: tuple[str, ...] = ()
    heading: bool = False  # set from the rest: see `is_heading`
    pairing: str = ""  # which clauses this one may continue: see `is_heading`

    @property
    def label(self) -> str:
        """The number, or a glossary entry's term."""
        return self.number or self.title or ""

    @property
    def group(self) -> str:
        return GROUP[self.kind]

    def __post_init__(self) -> None:
        self.heading = is_heading(self.kind, self.normalised)
        self.pairing = "heading" if self.heading else GROUP[self.kind]


def index_by_number(clauses: list[Clause]) -> dict[str, int]:
    """Each number of a release -> its clause's index (the last clause of a number that
    repeats)."""
    return {clause.number: i for i, clause in enumerate(clauses) if clause.number}


def joined_examples(examples: Iterable[str]) -> str:
    """A rule's examples (normalised texts, in order) as the one text its wording carries
    (`Clause.examples`), one a line. Every reader of the store that rebuilds a clause joins
    them so, or its kinds of change would not be the pipeline's."""
    return "\n".join(examples)


def is_heading(kind: str, normalised: str) -> bool:
    """A chapter, a section, or a rule whose text is only a title ("212.2. Artifacts").

    Headings of any level pair with headings (a rule heading may become a section, a section
    a chapter), content with content.
    """
    if kind in ("chapter", "section"):
        return True
    if kind != "rule":
        return False
    text = normalised.rstrip()
    return text.count(" ") < HEADING_WORDS and not text.endswith((".", ":", '"', ")"))
