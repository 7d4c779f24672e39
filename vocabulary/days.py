"""A day as every stage reads one: YYYY-MM-DD in ASCII digits.

Python's `\\d` takes any script's digits: "２０２１-０７-１２" matched it, and then failed as a
date with Python's own message. One pattern, so that the manifest, the CLI, the server and
the pages agree on what a day looks like.

>>> bool(ISO_DAY.fullmatch("2021-07-12")), bool(ISO_DAY.fullmatch("２０２１-０７-１２"))
(True, False)
"""

from __future__ import annotations

import re

ISO_DAY_PATTERN = r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
ISO_DAY = re.compile(ISO_DAY_PATTERN)
