"""Worker processes that die with the process that started them.

A pool's workers wait on a pipe whose write end they inherited themselves, so when their
parent is killed (SIGKILL: no cleanup runs) they never see it close and wait forever. Each
worker therefore runs `die_with_parent` first: on Linux the kernel sends it SIGKILL when the
parent dies (prctl PR_SET_PDEATHSIG); elsewhere a daemon thread notices the new parent id.

Ctrl-C at a terminal interrupts every process of the command, the workers too. Each worker
printed a traceback of its own above the parent's line; worse, a worker interrupted while it
sent a result (by the exception, or ending at once) left the pool's pipe half written, and
the parent waited on it for ever (seen under load, about one interrupt in six). The interrupt
is the parent's alone: a worker ignores it, finishes the task in hand, and is stopped by its
parent, which cancels what is queued and says what happened in one line.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
POLL_SECONDS = 0.5  # how soon a worker without prctl notices that its parent is gone
INTERRUPTED_EXIT = 128 + signal.SIGINT  # the status a shell gives a process ended by Ctrl-C


def die_with_parent(parent: int | None = None) -> None:
    """Make this process end when its parent (`parent`, or the current one) ends, and leave
    an interrupt to the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid() if parent is None else parent
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
                if os.getppid() != parent:  # the parent died before prctl took effect
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(POLL_SECONDS)
    os._exit(1)
