"""Worker processes the run watches: a worker that dies fails the run at once, and none outlives it.

concurrent.futures' process pool hung for good when the OOM killer took one of its workers (the
dead worker held the task queue's lock; the others waited on it, the run waited on them, and
Python's exit joined them), with the table's lock held. Here each worker has a task queue and a
result pipe of its own; the parent waits on the result pipes and on the workers' sentinels
together, so a death is seen as soon as it happens, and on any error every worker is killed.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from contextlib import contextmanager
from multiprocessing.connection import wait
from typing import Any, Callable, Iterator

from ..errors import DedupError


HELD = (signal.SIGINT, signal.SIGTERM)


class WorkerDied(DedupError):
    """A worker process ended while the run needed it (killed, out of memory, crashed)."""


def how_it_ended(exitcode: int | None) -> str:
    """``was killed by SIGKILL (out of memory?)`` or ``exited with code 3``, for one line of error."""
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"was killed by {name}" + (" (out of memory?)" if exitcode == -signal.SIGKILL else "")
    return f"exited with code {exitcode}"


def die_with_parent(parent: int) -> None:
    """On Linux, ask the kernel to end this process (a worker, the store writer) when its parent
    dies, even by SIGKILL, so a killed run leaves no orphan processes behind. ``parent`` is the
    parent's pid, taken before the fork: if it is no longer our parent, it died before the request
    took effect. (Not ``getppid() == 1``: a run that is pid 1 of a container is a living parent.)"""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:
            os._exit(1)
    except (OSError, AttributeError):
        pass


@contextmanager
def signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM kept back while a process is forked, and delivered after: a handler run
    inside fork's hooks (logging has one) has its exception ignored, and SIGTERM's SystemExit was
    lost (the run went on to the end). Blocking the signals would not do: any thread may take them.
    A child forked meanwhile calls ``release_signals``."""
    caught: list[int] = []
    try:
        before = {s: signal.signal(s, lambda signum, _frame: caught.append(signum)) for s in HELD}
    except ValueError:  # not the main thread: its signals are not ours to handle
        yield
        return
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)
        for signum in dict.fromkeys(caught):
            signal.raise_signal(signum)


def release_signals() -> None:
    """In a child forked inside ``signals_held``: Ctrl-C left to the parent, SIGTERM ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _serve(work: Callable[[Any], Any], tasks, results, parent: int) -> None:
    """A worker's loop: ``(seq, item)`` from its queue -> ``(seq, ok, result or exception)``; None ends it."""
    release_signals()  # Ctrl-C is the parent's to handle: it stops the workers
    die_with_parent(parent)
    while (task := tasks.get()) is not None:
        seq, item = task
        try:
            reply = (seq, True, work(item))
        except Exception as e:  # noqa: BLE001 - the parent raises it, as the pool did
            reply = (seq, False, e)
        try:
            results.send(reply)
        except Exception as e:  # noqa: BLE001 - an exception or result that does not pickle: its text
            results.send((seq, False, DedupError(f"{type(e).__name__}: {e}")))


class Workers:
    """``n`` processes running ``work``: ``put(item)`` returns a sequence number, ``get(seq)`` its
    result (raising the worker's exception, or WorkerDied). ``close()`` ends them gracefully,
    ``kill()`` at once; used as a context manager, an error kills them."""

    def __init__(self, work: Callable[[Any], Any], n: int, what: str = "worker"):
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        ctx: Any = multiprocessing.get_context(method)  # typeshed's BaseContext lacks Process
        self.what = what
        self.procs, self.tasks, self.pipes = [], [], []
        self.in_flight: list[int] = []
        self.done: dict[int, tuple[bool, Any]] = {}
        self.seq = 0
        try:
            for i in range(n):
                tasks = ctx.Queue()
                tasks.cancel_join_thread()  # a dead worker's queue must never hold the exit up
                reader, writer = ctx.Pipe(duplex=False)
                proc = ctx.Process(target=_serve, args=(work, tasks, writer, os.getpid()), name=f"dedup-{what}-{i}", daemon=True)
                with signals_held():
                    proc.start()
                writer.close()
                self.procs.append(proc)
                self.tasks.append(tasks)
                self.pipes.append(reader)
                self.in_flight.append(0)
        except BaseException:
            self.kill()
            raise

    def __enter__(self) -> "Workers":
        return self

    def __exit__(self, kind, *_exc) -> None:
        if kind is None:
            self.close()
        else:
            self.kill()

    def put(self, item: Any, among: int | None = None) -> int:
        """Give ``item`` to the least busy worker (of the first ``among``: all when None); returns
        its sequence number for ``get``."""
        self._check()
        return self._give(min(range(len(self.procs[:among])), key=self.in_flight.__getitem__), item)

    def each(self, item: Any, first: int | None = None) -> list[int]:
        """Give ``item`` to every worker (the first ``first``: all when None), ahead of what is put
        after it (each has a queue of its own); returns their sequence numbers for ``get``."""
        self._check()
        return [self._give(w, item) for w in range(len(self.procs[:first]))]

    def _give(self, w: int, item: Any) -> int:
        self.seq += 1
        self.tasks[w].put((self.seq, item))
        self.in_flight[w] += 1
        return self.seq

    def get(self, seq: int) -> Any:
        """The result of item ``seq``, once its worker sends it; results of others are kept meanwhile."""
        while seq not in self.done:
            self._check()
            ready = wait(self.pipes + [p.sentinel for p in self.procs])
            for w, pipe in enumerate(self.pipes):
                if pipe in ready:
                    try:
                        got, ok, value = pipe.recv()
                    except (EOFError, OSError):
                        continue  # it died: _check says how
                    self.done[got] = (ok, value)
                    self.in_flight[w] -= 1
        ok, value = self.done.pop(seq)
        if not ok:
            raise value
        return value

    def _check(self) -> None:
        for p in self.procs:
            if p.exitcode is not None:
                self.kill()
                raise WorkerDied(f"a {self.what} process {how_it_ended(p.exitcode)}; "
                                 "the run stopped and stored nothing")

    def close(self, timeout: float = 30) -> None:
        """Ask each worker to end, wait for it, and kill any that does not."""
        for p, tasks in zip(self.procs, self.tasks):
            if p.exitcode is None:
                try:
                    tasks.put(None)
                except (OSError, ValueError):
                    pass
        for p in self.procs:
            p.join(timeout)
        self.kill()

    def kill(self) -> None:
        """End every worker now (SIGKILL) and reap it; nothing is left running."""
        for p in self.procs:
            if p.exitcode is None:
                p.kill()
        for p in self.procs:
            p.join()
        for tasks in self.tasks:
            tasks.close()
        for pipe in self.pipes:
            pipe.close()
        self.procs, self.tasks, self.pipes, self.in_flight = [], [], [], []
