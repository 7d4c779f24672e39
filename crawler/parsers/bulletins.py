"""The official "Comprehensive Rules changes" articles, as markdown, parsed into entries.

Each article (`archive/captures/bulletins/articles/*.md`) opens with a metadata block, then
lists the changed rules: one heading per entry (`**107.3g**`, `### 114.9`, or a setext
heading `702.33h` over a line of dashes), the explanation in the paragraphs below it, and a
glossary paragraph near the end ("New entries: awaken, devoid, ingest"). A heading without
a rule number is a topic ("Stickers", "Mana Value", the Magic 2010 article's "2A)
Battlefield"); it becomes an entry of its own, matched by the term it names. The links at
the foot of the article end it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_META = re.compile(r'^\[_metadata_:(\w+)\]:-\s*"(.*)"\s*$')
_ATX = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$")
# A bold heading, perhaps with a remark after it ("**702.112** (112! Yikes!)")
_BOLD = re.compile(r"^\*\*(.+?)\*\*(?:\s*\([^()]*\))?\s*$")
# A bold lead naming the glossary, its list on the same line ("**New glossary terms:** anchor
# word, bolster, dash, manifest", Fate Reforged): a heading, and the list its paragraph
_GLOSSARY_LEAD_LINE = re.compile(r"^\*\*([^*]*\bglossary\b[^*]*?):?\*\*:?\s*(\S.*)$", re.IGNORECASE)
# A rule number alone in a paragraph of its own, its bold lost ("800.5", "111.10e  "), or a
# short range of them ("702.19c–d")
_BARE_NUMBER = re.compile(r"^\d{3}\.\d+[a-z]?(?:\s*[–—-]\s*[a-z0-9]+)?$")
_UNDERLINE = re.compile(r"^(-{3,}|={3,})\s*$")
_BULLET = re.compile(r"^[*+-]\s+")
_FOOTER = re.compile(r"^\[(Introduction|Oracle Changes)\]")
_NUMBER = re.compile(r"\b(\d{3})(?:\.(\d+)([a-z])?)?(?![\d.]*\d)")
_LETTERS_AFTER = re.compile(r"^\s*(?:[–—-]|/|,\s*and|,|and|&)\s*([a-z])\b")
_RULES_TO = re.compile(r"^\s*[–—-]\s*(\d+)\b(?![.\d])")  # "705.1–2": rules 705.1 to 705.2
# A range of rules longer than this is no heading's list (a date, a typo): its first only.
LONGEST_RANGE = 26
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
# A paragraph with no word: a table of pictures whose cells the markdown lost ("| | | |
# --- | --- |" in the 2009 article's "Battlefield"), shown as debris.
_WORDLESS = re.compile(r"[\s|:\-]*")
# A phrase in quotation marks within one paragraph: curly pairs, or straight ones counted
# from the paragraph's start (so an odd mark cannot pair the end of one quote with the next).
_QUOTED = re.compile(r"“([^“”\n]{8,200})”|\"([^\"\n]{8,200})\"")
_TOPIC_NUMBERING = re.compile(r"^\d+[A-Z]?\)\s*")
_GLOSSARY = re.compile(r"\bglossary\b", re.IGNORECASE)
_GLOSSARY_LEAD = re.compile(
    r"^(?:(?:new|revised|removed)?\s*(?:glossary\s+)?(?:entries|entry changes)"
    r"(?:\s+for)?\s*:?|I've added)\s*",
    re.IGNORECASE,
)
_GLOSSARY_TAIL = re.compile(
    r"\s+(?:to the defined terms.*|is the only addition.*|becomes .*|(?:is |are )?now\b.*)$",
    re.IGNORECASE,
)
# "Learn entry updated ...", "... added to Encore and Search entries": the terms come before
# the word "entry" (after the last "to", when the sentence says what was done to them).
_NAMED_ENTRIES = re.compile(r"^(?:.*\bto\s+)?(.+?)\s+entr(?:y|ies)\b", re.IGNORECASE)
# "Level Up: Tells you where to look ...": a term, a colon, then what changed.
_TERM_THEN_COLON = re.compile(r"^([^:]+):(?:\s|$)")
_LIST_PIECES = re.compile(r",\s*(?:and\s+)?|\s+and\s+")  # "a, b, and c", "a and b"
NAME_WORDS = 3  # a subtype's name is a word or two ("Time Lord"); a longer piece is a sentence
# Headings of the articles' own frame, never a rule or a term.
FRAME_HEADINGS = {
    "what are the comprehensive rules?",
    "comprehensive rules changes",
    "comprehensive rule changes",
    "comprehensive rulebook changes",
    "new and updated rules",
    "introduction",
    "examples",
    "can i learn more?",
}


@dataclass
class BulletinEntry:
    """One entry of an article: the rules or terms it lists and what it says of them."""

    position: int
    heading: str
    kind: str  # "rule", "glossary" or "topic"
    numbers: list[str] = field(default_factory=list)
    subrules: bool = False  # "123 (and its subrules)", "114.1 and more"
    terms: list[str] = field(default_factory=list)
    explanation: str = ""
    quoted: list[str] = field(default_factory=list)
    # A topic whose text is only a list of names ("Creature": "Fractal and Inkling"): its
    # terms are those names, which the release added to the rules, and not its heading.
    names_listed: bool = False


@dataclass
class Bulletin:
    """An article parsed: its metadata and entries."""

    file: str
    sha256: str
    title: str
    publish_date: str | None
    url: str | None
    entries: list[BulletinEntry] = field(default_factory=list)


def parse_bulletin(text: str, file: str, sha256: str, title: str = "") -> Bulletin:
    """Parse one article's markdown into its entries."""
    metadata, body = _split_metadata(text)
    bulletin = Bulletin(
        file=file,
        sha256=sha256,
        title=title or metadata.get("title", ""),
        publish_date=metadata.get("publish_date"),
        url=metadata.get("wayback_url"),
    )
    started = False
    for heading, paragraphs in _sections(body):
        entry = _entry(heading, paragraphs, len(bulletin.entries))
        if entry is None:
            continue
        if entry.kind != "topic":
            started = True
        if entry.kind == "topic" and not started and not _TOPIC_NUMBERING.match(heading):
            continue  # the article's introduction, before the first listed rule
        bulletin.entries.append(entry)
    return bulletin


def _split_metadata(text: str) -> tuple[dict[str, str], list[str]]:
    lines = text.splitlines()
    metadata: dict[str, str] = {}
    fences = [i for i, line in enumerate(lines[:40]) if line.strip() == "---"]
    end = fences[1] + 1 if len(fences) >= 2 else 0
    for line in lines[:end]:
        match = _META.match(line)
        if match:
            metadata[match.group(1)] = match.group(2)
    return metadata, lines[end:]


def _sections(lines: list[str]) -> list[tuple[str, list[str]]]:
    """(heading, paragraphs) in order, up to the footer links."""
    sections: list[tuple[str, list[str]]] = []
    paragraph: list[str] = []
    current: tuple[str, list[str]] | None = None

    def flush() -> None:
        if paragraph and current is not None:
            current[1].append(" ".join(part.strip() for part in paragraph).strip())
        paragraph.clear()

    for index, line in enumerate(lines):
        stripped = line.strip()
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if _FOOTER.match(stripped) and sections:
            break
        heading = None
        if _UNDERLINE.match(following) and stripped and not _UNDERLINE.match(stripped):
            heading = stripped
        elif _UNDERLINE.match(stripped):
            flush()
            continue
        elif _BARE_NUMBER.match(stripped) and _alone(lines, index):
            heading = stripped
        elif lead := _GLOSSARY_LEAD_LINE.match(stripped):
            flush()
            current = (lead.group(1).strip(), [lead.group(2).strip()])
            sections.append(current)
            continue
        else:
            match = _ATX.match(stripped) or _BOLD.match(stripped)
            if match and (_NUMBER.search(match.group(1)) or len(match.group(1)) < 80):
                heading = match.group(1).strip()
        if heading is not None:
            flush()
            current = (heading, [])
            sections.append(current)
        elif not stripped:
            flush()
        elif _BULLET.match(stripped):  # each item of a list is a paragraph of its own
            flush()
            paragraph.append(_BULLET.sub("", stripped))
        else:
            paragraph.append(stripped)
    flush()
    return sections


def _alone(lines: list[str], index: int) -> bool:
    """Is line `index` a paragraph of its own (blank lines, or the text's ends, around it)?"""
    before = lines[index - 1].strip() if index > 0 else ""
    after = lines[index + 1].strip() if index + 1 < len(lines) else ""
    return not before and not after


def _entry(heading: str, paragraphs: list[str], position: int) -> BulletinEntry | None:
    clean = _plain(heading).rstrip(":").strip()
    if clean.casefold() in FRAME_HEADINGS or not clean:
        return None
    plain = (_plain(p) for p in paragraphs)
    explanation = "\n\n".join(p for p in plain if not _WORDLESS.fullmatch(p))
    quoted = [
        (curly or straight).strip()
        for paragraph in explanation.split("\n\n")
        if paragraph.count('"') % 2 == 0
        for curly, straight in _QUOTED.findall(paragraph)
    ]
    if _GLOSSARY.search(clean) and not _NUMBER.search(clean):
        terms = [term for p in paragraphs for term in glossary_terms(_plain(p))]
        return BulletinEntry(position, clean, "glossary", terms=terms, explanation=explanation)
    numbers, subrules = rule_numbers(clean)
    if numbers:
        return BulletinEntry(
            position, clean, "rule", numbers, subrules, explanation=explanation, quoted=quoted
        )
    topic = _TOPIC_NUMBERING.sub("", clean).strip()
    if not explanation or len(topic) > 60:
        return None
    names = listed_names(explanation)
    return BulletinEntry(
        position,
        clean,
        "topic",
        terms=names or _LIST_PIECES.split(topic),  # "Cast, Play, and Activate": three terms
        explanation=explanation,
        quoted=quoted,
        names_listed=bool(names),
    )


def listed_names(text: str) -> list[str]:
    """The names a text lists and says nothing else of, one per line or separated by commas
    and "and"; none when any piece reads as more than a name (`NAME_WORDS`, a capital first).

    >>> listed_names("Bahamut, Ellywick, Lolth, Mordenkainen, Zariel")
    ['Bahamut', 'Ellywick', 'Lolth', 'Mordenkainen', 'Zariel']
    >>> listed_names("Powerstone\\n\\nSivitri")
    ['Powerstone', 'Sivitri']
    >>> listed_names("Kaito was added to the list of planeswalker types.")
    []
    """
    pieces = [
        piece.strip()
        for paragraph in text.split("\n\n")
        for piece in _LIST_PIECES.split(paragraph.strip().rstrip("."))
    ]
    if not pieces or any(
        not piece[:1].isupper() or len(piece.split()) > NAME_WORDS or re.search(r"[.:;!?]", piece)
        for piece in pieces
    ):
        return []
    return pieces


def rule_numbers(heading: str) -> tuple[list[str], bool]:
    """The rule numbers a heading lists, ranges and letter lists spelt out; and whether it
    says its subrules (or "more") count too.

    >>> rule_numbers("614.12b–c")
    (['614.12b', '614.12c'], False)
    >>> rule_numbers("107.3i and j")
    (['107.3i', '107.3j'], False)
    >>> rule_numbers("605.1a/b")
    (['605.1a', '605.1b'], False)
    >>> rule_numbers("123 (and its subrules)")
    (['123'], True)
    >>> rule_numbers("702.109.")
    (['702.109'], False)
    >>> rule_numbers("606.4–6")
    (['606.4', '606.5', '606.6'], False)
    """
    numbers: list[str] = []
    for match in _NUMBER.finditer(heading):
        section, rule, letter = match.groups()
        base = f"{section}.{rule}" if rule else section
        numbers.append(base + (letter or ""))
        if rule and not letter:
            numbers.extend(_rules_to(section, int(rule), heading[match.end() :]))
        if not letter:
            continue
        rest, last = heading[match.end() :], letter
        while (more := _LETTERS_AFTER.match(rest)) is not None:
            following = more.group(1)
            is_range = rest.lstrip()[:1] in "–—-"
            span = range(ord(last) + 1, ord(following) + 1) if is_range else [ord(following)]
            numbers.extend(base + chr(code) for code in span)
            rest, last = rest[more.end() :], following
    subrules = bool(re.search(r"subrules|and (?:many )?more", heading, re.IGNORECASE))
    return list(dict.fromkeys(numbers)), subrules


def _rules_to(section: str, first: int, rest: str) -> list[str]:
    """The rules after `section`.`first` that a range opening `rest` spells ("–2")."""
    found = _RULES_TO.match(rest)
    last = int(found.group(1)) if found else first
    if not first < last <= first + LONGEST_RANGE:
        return []
    return [f"{section}.{rule}" for rule in range(first + 1, last + 1)]


def glossary_terms(paragraph: str) -> list[str]:
    """The terms a glossary paragraph lists.

    >>> glossary_terms("New entries for checklist card, emerge, escalate, meld, and meld cards.")
    ['checklist card', 'emerge', 'escalate', 'meld', 'meld cards']
    >>> glossary_terms("Explore is the only addition to the glossary this time.")
    ['Explore']
    >>> glossary_terms("Boast, foretell, Gold token (oops), Shard token")
    ['Boast', 'foretell', 'Gold token', 'Shard token']
    >>> glossary_terms('Object now includes "an emblem" in its definition.')
    ['Object']
    >>> glossary_terms("Specific rule references were added to Encore and Search entries.")
    ['Encore', 'Search']
    >>> glossary_terms("Learn entry updated to say that it is a keyword action.")
    ['Learn']
    >>> glossary_terms("Level Up: Tells you where to look for Class card info.")
    ['Level Up']
    >>> glossary_terms("Goad: Now references Goaded.")
    ['Goad']
    """
    text = re.sub(r"\([^)]*\)", "", paragraph).strip().rstrip(".")
    text = _GLOSSARY_TAIL.sub("", _GLOSSARY_LEAD.sub("", text))
    named = _NAMED_ENTRIES.match(text) or _TERM_THEN_COLON.match(text)
    if named is not None:
        text = named.group(1)
    pieces = _LIST_PIECES.split(text)
    terms = [re.sub(r"^the\s+", "", piece.strip(" .;")) for piece in pieces]
    return [term for term in terms if term and len(term.split()) <= 5]


def _plain(text: str) -> str:
    """Markdown links become their text; images, emphasis marks and spare spaces go."""
    text = _LINK.sub(lambda m: "" if m.group(0).startswith("!") else m.group(1), text)
    text = re.sub(r"(\*\*|__|\*|_)(?=\S)(.+?)(?<=\S)\1", r"\2", text)
    return re.sub(r"\s+", " ", text).strip()
