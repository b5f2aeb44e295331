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
        self.cpu: dict[str, float] = {}  # CPU seconds of this process (not its workers'), less disturbed by load
        self._inner: list[tuple[float, float]] = []  # per open stage: (wall, CPU) seconds of the stages inside it

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        start, start_cpu = time.perf_counter(), time.process_time()
        self._inner.append((0.0, 0.0))
        try:
            yield
        finally:
            spent, spent_cpu = time.perf_counter() - start, time.process_time() - start_cpu
            inner, inner_cpu = self._inner.pop()
            self.seconds[name] = self.seconds.get(name, 0.0) + spent - inner
            self.cpu[name] = self.cpu.get(name, 0.0) + spent_cpu - inner_cpu
            if self._inner:
                wall, cpu = self._inner[-1]
                self._inner[-1] = (wall + spent, cpu + spent_cpu)

    def wrap(self, name: str, fn: Callable) -> Callable:
        """``fn`` with each call charged to stage ``name``."""
        def timed(*args, **kwargs):
            with self.stage(name):
                return fn(*args, **kwargs)
        return timed

    def line(self) -> str:
        return ", ".join(f"{name} {secs:.2f}s (CPU {self.cpu[name]:.2f}s)" for name, secs in self.seconds.items())
