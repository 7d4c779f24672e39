"""Errors a user can cause; each message names the input at fault."""


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
