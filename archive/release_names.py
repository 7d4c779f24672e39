"""Names of releases: the set (or event) a CR release accompanied, where a source says so.

The CR text itself never names its set; these come from sources that cite releases by
"date—set" (MTG Wiki quotes) or from set codes in the official file names. Each entry says
where it came from.
"""

from __future__ import annotations

# date -> (name, where the name comes from)
KNOWN_NAMES: dict[str, tuple[str, str]] = {
    "2020-01-22": (
        "Theros Beyond Death",
        "MTG Wiki 'Face down' (January 24, 2020—Theros Beyond Death)",
    ),
    "2024-06-07": ("Modern Horizons 3", "MTG Wiki 'Face-down' (June 7, 2024—Modern Horizons 3)"),
    "2016-08-26": (
        "Conspiracy: Take the Crown",
        "file name MagicCompRules_CN2_Update_20160826.txt",
    ),
    "2023-09-01": ("Wilds of Eldraine", "file name MagicCompRulesWOE 20230901.txt"),
}


def release_name(date: str) -> str | None:
    """The set a release accompanied, if a source names it."""
    entry = KNOWN_NAMES.get(date)
    return entry[0] if entry else None
