"""A full run's store write in a second process, while the main one finds the pairs and groups.

After reading, a full run's main process worked alone while the text workers' cores idled: the
pairs and groups (candidates, verification, linking) and then the block entries and the store
write, which on SQLite are most of that time. The rows, their fingerprints and block entries do
not depend on the groups, so a forked child writes them, inside the transaction that replaces the
table's results, while the parent finds the groups; the parent then sends the groups and the
run's changes, the child writes them and commits. One transaction as before: a run stopped at any
point (the parent failing, Ctrl-C, either process killed) commits nothing, and the previous
results stay. The parent reads the stored groups (to keep their ids) while the child writes:
readers see the last committed results (SQLite's WAL, PostgreSQL's and InnoDB's snapshots).

Only for stores whose ``concurrent_writer()`` opens them for a child (SQL stores on a server or in
a SQLite file in WAL mode; an in-memory SQLite store is the parent's alone), where processes can
fork, with more than one text worker (``text.workers: 1`` asks for one process) and at least ``MIN_ROWS`` rows (forking costs more than it saves on small
tables). The price is memory: the child's block entries and the parent's pairs and groups are
held at once, and pages both processes touch are copied (a 200k run's processes together peak
4 % above the one-process write's, bench/results/history.md).

The child is forked before the table is read (``writing_beside`` at the start of the run), while
the parent holds little more than the interpreter, and is sent what it writes (``StoreWriter.send``)
once the groups' distinct sketches are known: the arrays through the pipe as they are held, not
pickled into a copy (``send_arrays``). Forked after the groups, it counted the parent's whole heap
in its RSS (the read's and sketch stage's left-overs, 1.46 KB a row; issue 26, memory-s39.md).
"""

from __future__ import annotations

import _thread
import logging
import multiprocessing
import os
import pickle
import signal
import threading
import time
import traceback
from contextlib import contextmanager
from multiprocessing.connection import wait
from typing import Callable, Iterator

from ..errors import StoreError
from ..store import Store
from .workers import die_with_parent, how_it_ended, release_signals, signals_held

log = logging.getLogger(__name__)
MIN_ROWS = 20_000
CHUNK = 1 << 20  # bytes of an array a message (send_arrays)


class StoreWriter:
    """The child writing a snapshot: ``send(inputs)`` starts ``write(inputs, later)`` in it,
    ``finish(groups, changes)`` completes and commits it.

    A thread watches the child while the parent finds the groups: a child that ends before then
    (killed, out of memory) interrupts the parent at once (``writing_beside`` turns that into the
    child's error) instead of when the groups are ready."""

    def __init__(self, write: Callable[[Callable[[], dict]], dict]):
        ctx = multiprocessing.get_context("fork")
        self._pipe, child_end = ctx.Pipe()
        self._proc = ctx.Process(target=_child, args=(write, child_end, os.getpid()), name="dedup-store-writer", daemon=True)
        with signals_held():
            self._proc.start()
        child_end.close()
        self.seconds: dict[str, float] = {}  # the child's wall seconds (block names and the write)
        self._guard = threading.Lock()
        self._waiting = True  # the parent has not yet asked for the commit; no interrupt after that
        self.ended_early: BaseException | None = None  # why the child ended before finish(): the parent was interrupted
        self._sigint_before = self._hook_sigint()
        threading.Thread(target=self._watch, name="dedup-store-writer-watch", daemon=True).start()

    def _hook_sigint(self):
        """SIGINT handled by ``_on_sigint`` while the child lives (the handler it had before, or
        False where this is not the main thread and SIGINT is not ours to handle)."""
        try:
            return signal.signal(signal.SIGINT, self._on_sigint)
        except ValueError:
            return False

    def _on_sigint(self, signum, frame) -> None:
        """The watcher's SIGINT (the child ended early) is a KeyboardInterrupt whatever SIGINT did
        before; any other does what it did before. A run started in the background by a
        non-interactive shell (`dedup full &` in a script) ignores SIGINT: there the watcher's interrupt was lost and the run waited
        for good, the table's lock held (seen in session 39)."""
        before = self._sigint_before
        if self.ended_early is None:
            if before is signal.SIG_IGN:
                return
            if callable(before):
                return before(signum, frame)
        raise KeyboardInterrupt

    def _unhook_sigint(self) -> None:
        before, self._sigint_before = self._sigint_before, False
        if before is not False and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.default_int_handler if before is None else before)

    def _watch(self) -> None:
        wait([self._proc.sentinel])
        with self._guard:
            if self._waiting:
                self.ended_early = self._early_error()
                _interrupt_main()  # a KeyboardInterrupt in the parent; writing_beside raises ended_early

    def _stop_watching(self) -> None:
        with self._guard:
            self._waiting = False
        self._unhook_sigint()

    def _early_error(self) -> BaseException:
        """Why the child ended before finish(): its own error if it sent one, else how it died."""
        try:
            if self._pipe.poll():
                status, detail = self._pipe.recv()
                if status == "error":
                    log.debug("store writer: %s", detail[1])
                    return detail[0]
        except (EOFError, OSError):
            pass
        self._proc.join()
        return StoreError(f"the store writer process {how_it_ended(self._proc.exitcode)}; the run stopped and "
                          "stored nothing")

    def send(self, inputs) -> None:
        """What the child's ``write`` is given (its arrays sent without a copy: ``send_arrays``)."""
        try:
            send_arrays(self._pipe, inputs)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the child ended already: the watcher interrupts this thread with its error

    def finish(self, groups: list, changes: list) -> None:
        """Send the groups and changes, wait for the commit; the child's error is raised here."""
        self._stop_watching()
        if self.ended_early is not None:  # the watcher took the child's reply (its error) off the pipe already;
            raise self.ended_early  # its interrupt of this thread may still be on its way (a blocked signal)
        try:
            self._pipe.send({"groups": groups, "changes": changes})
        except (BrokenPipeError, ConnectionResetError):
            pass  # the child ended already: its reply (its error) may be waiting in the pipe
        try:
            status, detail = self._pipe.recv()
        except (EOFError, ConnectionResetError):
            self._proc.join(5)
            raise StoreError("the store writer process ended without committing: it "
                             f"{how_it_ended(self._proc.exitcode)}") from None
        self._proc.join()
        if status == "error":
            error, text = detail
            log.debug("store writer: %s", text)
            raise error
        self.seconds = detail

    def abort(self) -> None:
        """Stop the child, its transaction uncommitted."""
        self._stop_watching()
        if self._proc.is_alive():
            self._proc.kill()
        self._proc.join()
        self._pipe.close()


def _interrupt_main() -> None:
    """KeyboardInterrupt in the main thread, even one blocked in a system call (a real SIGINT
    sent to it alone wakes it; ``interrupt_main`` would wait for the call to return)."""
    try:
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
    except (AttributeError, OSError):  # no pthread_kill (Windows)
        _thread.interrupt_main()


def _child(write: Callable, pipe, parent: int) -> None:
    release_signals()  # Ctrl-C is the parent's to handle: it stops this child
    die_with_parent(parent)
    try:
        inputs = [_wait_for(pipe, receive_arrays)]  # a list ``write`` empties: what it lets go is freed
        seconds = write(inputs, lambda: _wait_for(pipe))
        pipe.send(("ok", seconds))
    except BaseException as e:  # noqa: BLE001 - every failure goes back to the parent, whole
        try:
            pipe.send(("error", (e, traceback.format_exc())))
        except Exception:  # an exception that does not pickle: its text
            pipe.send(("error", (StoreError(f"{type(e).__name__}: {e}"), traceback.format_exc())))


def _wait_for(pipe, receive: Callable = lambda pipe: pipe.recv()):
    try:
        return receive(pipe)
    except EOFError:  # the parent is gone: nothing is committed
        raise SystemExit(1) from None


def send_arrays(pipe, obj) -> None:
    """``obj`` pickled with its contiguous arrays out of band (protocol 5), each array's bytes
    written to the pipe from where they lie, CHUNK bytes a message: no pickled copy of them in
    the sender, and no more than a chunk on its way in the receiver (a whole message is read
    into a buffer of its own before it is copied out)."""
    buffers: list[pickle.PickleBuffer] = []
    head = pickle.dumps(obj, protocol=5, buffer_callback=buffers.append)
    raw = [b.raw() for b in buffers]
    pipe.send([m.nbytes for m in raw])
    pipe.send_bytes(head)
    for m in raw:
        for at in range(0, m.nbytes, CHUNK):
            pipe.send_bytes(m[at:at + CHUNK])


def receive_arrays(pipe):
    """What ``send_arrays`` sent; each array is read into a writable buffer of its own."""
    sizes = pipe.recv()
    head = pipe.recv_bytes()
    buffers = []
    for n in sizes:
        buf = bytearray(n)
        for at in range(0, n, CHUNK):
            pipe.recv_bytes_into(buf, at)
        buffers.append(buf)
    return pickle.loads(head, buffers=buffers)


def can_write_beside(store, rows: int, workers: int) -> bool:
    """Whether a full run of ``rows`` rows with ``workers`` text workers writes ``store`` in a child."""
    return _child_store(store, rows, workers) is not None


def _child_store(store, rows: int, workers: int) -> Callable[[], Store] | None:
    """The store's opener for a child (its concurrent_writer), for runs large enough to gain from one."""
    if workers < 2 or rows < MIN_ROWS or "fork" not in multiprocessing.get_all_start_methods():
        return None
    return store.concurrent_writer()


@contextmanager
def writing_beside(store, rows: int, workers: int, write: Callable) -> Iterator[StoreWriter | None]:
    """A StoreWriter running ``write(store, inputs, later)`` in a child when ``can_write_beside``
    (``rows``: the source's count, before the read), else None. ``write`` replaces the table's
    results in the store it is given with what ``StoreWriter.send`` sent, calling ``later()`` for
    the groups and changes (``Store.replace_table``). A writer not finished when the block ends
    (an error in the parent) is stopped uncommitted."""
    reopen = _child_store(store, rows, workers)
    if reopen is None:
        yield None
        return
    writer = StoreWriter(_timed_write(reopen, write))
    try:
        try:
            yield writer
        finally:
            writer.abort()
    except KeyboardInterrupt:
        if writer.ended_early is None:
            raise  # Ctrl-C
        raise writer.ended_early from None


def _timed_write(reopen: Callable[[], Store], write: Callable) -> Callable:
    """In the child: a store of its own (``reopen()``), ``write(store, inputs, later)`` (``inputs``:
    a list holding what was sent, for ``write`` to take out), and the seconds it took (from the
    inputs' arrival)."""
    def run(inputs: list, later: Callable[[], dict]) -> dict:
        start = time.perf_counter()
        with reopen() as store:
            write(store, inputs, later)
        return {"store (child process: block names and write)": time.perf_counter() - start}
    return run
