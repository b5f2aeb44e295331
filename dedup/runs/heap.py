"""Freed memory handed back to the system between a full run's stages.

glibc keeps the memory Python and numpy free in its heap for reuse, and its mmap threshold rises
to 32 MB once a large array has been freed, so the read's and sketch stage's batches (tens of MB
each, made and freed thousands of times) leave pages that count in the process's RSS until the
run ends, and that a forked store writer inherits. ``malloc_trim(0)`` returns the free pages
(issue 26, bench/results/memory-s37.md; its share of that page's cut was not measured apart).
Elsewhere (no glibc) it does nothing."""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from functools import cache


@cache
def _trim():
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc.malloc_trim
    except (OSError, AttributeError):  # musl and others have no malloc_trim
        return None


def give_back_freed() -> bool:
    """Return the heap's free pages to the system; whether any were (False: nothing, or no glibc)."""
    trim = _trim()
    return bool(trim(0)) if trim is not None else False
