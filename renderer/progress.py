"""What `build` shows while it works: its stages, then the pages rendered, with tqdm.

On a terminal only: tqdm's `disable=None` turns every bar off when stderr is not a TTY (a
pipe, a file, CI), so nothing of it lands in a log. `Progress.off()` is for callers that want
silence whatever stderr is (`--quiet`, `--json`, the tests' and the bench's builds).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from tqdm import tqdm


class Progress:
    def __init__(self, disable: bool | None = None) -> None:
        self.disable = disable
        self._stages: Any = tqdm(disable=True)
        self._pages: Any = None
        self._unchanged = 0
        self._started = False

    @classmethod
    def off(cls) -> Progress:
        return cls(disable=True)

    def begin(self, stages: int) -> None:
        self._stages = tqdm(
            total=stages, desc="build", unit="stage", disable=self.disable, file=sys.stderr
        )

    def stage(self, name: str) -> None:
        """A stage begins (the one before it is done)."""
        if self._started:
            self._stages.update(1)
        self._started = True
        self._stages.set_description(f"build: {name}")

    def pages(self, total: int, unchanged: int) -> Callable[[int], None]:
        """A bar for the `total` pages to render; returns what counts `n` more done."""
        self._unchanged = unchanged
        self._pages = tqdm(
            total=total,
            desc=f"pages ({unchanged} unchanged)",
            unit="page",
            disable=self.disable,
            file=sys.stderr,
        )
        return self._pages.update  # type: ignore[no-any-return]

    def more_pages(self, total: int, unchanged: int) -> None:
        """`total` more pages to render, and `unchanged` more left as they are."""
        self._unchanged += unchanged
        self._pages.total += total
        self._pages.set_description(f"pages ({self._unchanged} unchanged)")

    def close(self) -> None:
        if self._pages is not None:
            self._pages.close()
        if self._stages.total:
            self._stages.update(self._stages.total - self._stages.n)
        self._stages.close()
