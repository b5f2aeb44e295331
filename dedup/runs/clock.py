"""Where a run's time goes: wall-clock seconds per stage, for the log and the benchmarks.

Stages may nest (``candidates`` and ``verify`` happen inside ``groups``); each stage is charged
only the time not spent in the stages inside it, so the seconds add up to the run's.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Callable, Iterator


class StageClock:
    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._inner: list[float] = []  # per open stage: seconds spent in the stages inside it

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        self._inner.append(0.0)
        try:
            yield
        finally:
            spent = time.perf_counter() - start
            inner = self._inner.pop()
            self.seconds[name] = self.seconds.get(name, 0.0) + spent - inner
            if self._inner:
                self._inner[-1] += spent

    def wrap(self, name: str, fn: Callable) -> Callable:
        """``fn`` with each call charged to stage ``name``."""
        def timed(*args, **kwargs):
            with self.stage(name):
                return fn(*args, **kwargs)
        return timed

    def line(self) -> str:
        return ", ".join(f"{name} {secs:.2f}s" for name, secs in self.seconds.items())
