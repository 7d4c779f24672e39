"""Errors a user can cause; each message names the input at fault."""

SHOWN = 80  # characters of a user's input an error repeats: it stays one readable line


def quoted(text: str) -> str:
    """`text` as an error names it: quoted, and cut with "…" past `SHOWN` characters (a
    10,000-character argument was repeated whole).

    >>> quoted("504.2x"), len(quoted("5" * 10_000))
    ("'504.2x'", 82)
    """
    return repr(text if len(text) <= SHOWN else text[: SHOWN - 1] + "…")


class RulesHistoryError(Exception):
    """Base of every error the CLI reports as one line instead of a traceback."""


class CaptureError(RulesHistoryError):
    """A capture that cannot be read as a Comprehensive Rules text."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem

    def __reduce__(self) -> tuple[type, tuple[str, str]]:
        # Parsing runs in worker processes; the error must cross back intact.
        return (type(self), (self.path, self.problem))


class LookupFailed(RulesHistoryError):
    """A rule number, release or date that the store cannot answer for."""


class NotANumber(LookupFailed):
    """An input written like no clause number: no release and no day answers for it, so its
    error says nothing of the day asked (a gap in the archive, a release not yet in effect)."""
