"""The next part of a bulk insert made in a thread while SQLite writes this one.

A full run's store writer spent about half its time in Python making the block entries' and
rows' parameters (names decoded, keys picked, tuples laid out) and half in SQLite stepping the
INSERTs, one after the other, while the run's parent waited for it on the other core. The
sqlite3 module lets go of the GIL while a statement steps, so a thread can make the next
part's parameters meanwhile (bench/results/rensa2-s44.md). The parts and their order are the
same; one part more is held at a time.
"""

from __future__ import annotations

import queue
import sys
import threading
from contextlib import contextmanager
from typing import Iterable, Iterator, TypeVar

T = TypeVar("T")
AHEAD = 2  # parts made ahead of the one being written
SWITCH_S = 0.0005  # the GIL hand-over interval while a part is made beside a write (Python's default: 5 ms)
_DONE = object()


def prefetched(items: Iterable[T], ahead: int = AHEAD) -> Iterator[T]:
    """``items`` in their order, the next ones made by a thread while the caller uses this one; an
    error of the thread's is raised here, at the item it stopped at."""
    ready: queue.Queue = queue.Queue(maxsize=ahead)
    stop = threading.Event()

    def make() -> None:
        try:
            for item in items:
                ready.put((True, item))
                if stop.is_set():
                    return
            ready.put((False, _DONE))
        except BaseException as e:  # noqa: BLE001 - raised again in the caller's thread
            ready.put((False, e))

    maker = threading.Thread(target=make, name="dedup-insert-prefetch", daemon=True)
    with _quick_switch():
        maker.start()
        try:
            while True:
                ok, item = ready.get()
                if not ok:
                    if item is _DONE:
                        return
                    raise item
                yield item
        finally:
            stop.set()
            while maker.is_alive():  # the maker stops after the item it is making: make room for it
                try:
                    ready.get(timeout=0.05)
                except queue.Empty:
                    pass


@contextmanager
def _quick_switch() -> Iterator[None]:
    """A short GIL hand-over interval: the writing thread, back from a statement's step, would
    otherwise wait up to 5 ms for the making thread to let go, thousands of times."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(min(before, SWITCH_S))
    try:
        yield
    finally:
        sys.setswitchinterval(before)
