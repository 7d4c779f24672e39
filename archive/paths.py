"""Files named by a manifest or an index, resolved inside their folder and read with a cap.

The one place that turns a name from a file we did not write (`manifest.json`,
`index.json`, `.build-manifest.json`) into a path. A name is refused when it is not a
relative path, climbs out with `..`, or resolves (through a symlink) outside the folder;
reading also refuses anything that is not a regular file (a FIFO would block, a device such
as `/dev/zero` never ends, a directory is no capture) and a file over the size cap.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath

from archive.errors import CaptureError


def resolve_inside(folder: Path, name: object, what: str = "file") -> Path:
    """`folder / name`, refused unless it stays inside `folder` once symlinks are resolved."""
    if not isinstance(name, str) or not name.strip() or "\0" in name:  # no system takes NUL
        raise CaptureError(str(folder), f"{what} {name!r} is not a file name")
    relative = PurePosixPath(name.replace("\\", "/"))
    if relative.is_absolute() or Path(name).is_absolute():
        raise CaptureError(name, f"{what} is an absolute path; only paths inside {folder} are read")
    if ".." in relative.parts:
        raise CaptureError(name, f"{what} climbs out of {folder} with '..'")
    root = folder.resolve()
    target = (root / relative).resolve()
    if target != root and root not in target.parents:
        raise CaptureError(str(folder / name), f"{what} resolves outside {folder} (a symlink?)")
    return target


def read_inside(folder: Path, name: object, max_bytes: int, what: str = "file") -> bytes:
    """The bytes of regular file `name` inside `folder`, refused above `max_bytes`."""
    shown = str(folder / str(name))
    handle, info = _open_inside(folder, name, what)
    try:
        if info.st_size > max_bytes:
            raise CaptureError(shown, _too_big(info.st_size, max_bytes))
    except BaseException:
        os.close(handle)
        raise
    with os.fdopen(handle, "rb") as stream:
        data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:  # the file grew while we read it
        raise CaptureError(shown, _too_big(len(data), max_bytes))
    return data


def size_inside(folder: Path, name: object, what: str = "file") -> int:
    """The size of regular file `name` inside `folder`, checked as `read_inside` checks it,
    without reading it."""
    handle, info = _open_inside(folder, name, what)
    os.close(handle)
    return info.st_size


def _open_inside(folder: Path, name: object, what: str) -> tuple[int, os.stat_result]:
    """An open handle on regular file `name` inside `folder` (no link followed out of it, no
    FIFO waited on), and its status."""
    target = resolve_inside(folder, name, what)
    shown = str(folder / str(name))
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; fstat refuses it next.
        handle = os.open(target, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError as exc:
        raise CaptureError(shown, f"{what} is listed but missing on disk") from exc
    except IsADirectoryError as exc:
        raise CaptureError(shown, f"{what} is a directory, not a file") from exc
    except OSError as exc:
        raise CaptureError(shown, f"{what} cannot be opened: {exc.strerror}") from exc
    try:
        info = os.fstat(handle)
        if stat.S_ISDIR(info.st_mode):
            raise CaptureError(shown, f"{what} is a directory, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise CaptureError(shown, f"{what} is not a regular file (a FIFO, socket or device)")
    except BaseException:
        os.close(handle)
        raise
    return handle, info


def _too_big(size: int, limit: int) -> str:
    return f"{size:,} bytes, over the limit of {limit:,} for one file: refused unread"
