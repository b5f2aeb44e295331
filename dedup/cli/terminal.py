"""What the command line prints besides reports: progress bars with rows/s, one-line summaries of
runs, and error and log lines with passwords masked and control characters escaped."""

from __future__ import annotations

import logging
import sys
import time
from typing import Any

import click

from ..db.masking import mask_secrets
from ..report.cells import visible
from ..report.render import rows_per_second


def one_line(message: str) -> str:
    """An error message for the terminal: passwords masked, control characters (data) escaped."""
    return visible(mask_secrets(message))


class MaskingFormatter(logging.Formatter):
    """Every log line, tracebacks included, with URL passwords masked and control characters escaped."""

    def format(self, record: logging.LogRecord) -> str:
        return "\n".join(map(visible, mask_secrets(super().format(record)).split("\n")))


class Progress:
    """A click progress bar with rows/s on a terminal; silent otherwise or with --quiet."""

    def __init__(self, label: str, quiet: bool):
        self.label = visible(label)
        self.enabled = not quiet and sys.stderr.isatty()
        self.bar: Any = None  # a click progress bar once the total is known, on a terminal
        self.done = 0
        self.start = time.perf_counter()

    def total(self, n: int) -> None:
        if self.enabled:
            self.bar = click.progressbar(length=max(n, 1), label=self.label, file=sys.stderr, show_pos=True,
                                         item_show_func=lambda s: s)
            self.bar.__enter__()

    def __call__(self, n: int) -> None:
        self.done += n
        if self.bar is not None:
            rate = self.done / max(time.perf_counter() - self.start, 1e-9)
            self.bar.update(n, f"{rate:,.0f} rows/s")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *_exc) -> None:
        self.close()


def started_prefix(s: dict) -> str:
    """``2026-11-26T02:30:00Z `` before a run's line: when it started, in UTC, for a cron log."""
    return f"{s['started']} " if s.get("started") else ""


def full_summary_line(s: dict) -> str:
    skipped = s["skipped_no_features"] + s["unreadable"]
    extra = f", {skipped} skipped ({s['unreadable']} unreadable)" if skipped else ""
    extra += f", {s['duplicate_keys']} duplicate keys" if s.get("duplicate_keys") else ""
    extra += f", {s['null_keys']} rows with a NULL key" if s.get("null_keys") else ""
    extra += f", {s['bad_keys']} keys a store cannot keep" if s.get("bad_keys") else ""
    extra += f", {s['truncated']} cells truncated" if s.get("truncated") else ""
    if s.get("run") is not None and s.get("new_groups", 0) != s["groups"]:  # there were groups before
        extra += (f"; since the last run {s['new_groups']} new, {s['grown_groups']} grown, {s['merged_groups']} merged, "
                  f"{s['split_groups']} split, {s['dissolved_groups']} gone, {s['rows_left_groups']} rows left groups")
    return (f"{started_prefix(s)}{visible(s['table'])}: {s['rows']} rows, {s['groups']} groups, {s['rows_in_groups']} rows in groups"
            f"{extra}, {s['seconds']:.1f} s{rows_per_second(s['rows'], s['seconds'])}")


def incremental_summary_line(s: dict) -> str:
    parts = [f"{s['rows']} new rows" + (f" ({s['changed']} changed)" if s["changed"] else ""),
             f"{s['new_groups']} new groups", f"{s['rows_joining_groups']} rows joined groups"]
    if s["merged_groups"]:
        parts.append(f"{s['merged_groups']} groups merged")
    if s.get("split_groups"):
        parts.append(f"{s['split_groups']} groups split")
    if s["dissolved_groups"]:
        parts.append(f"{s['dissolved_groups']} groups dissolved")
    if s.get("rows_left_groups"):
        parts.append(f"{s['rows_left_groups']} rows left groups")
    if s["skipped"]:
        parts.append(f"{s['skipped']} skipped ({s['unreadable']} unreadable)")
    if s.get("truncated"):
        parts.append(f"{s['truncated']} cells truncated")
    if s.get("null_watermark"):
        parts.append(f"{s['null_watermark']} rows with a NULL watermark not read")
    if s.get("reconciled"):
        parts.append(f"{s['deleted']} deleted rows removed")
    if s.get("unseen_rows"):
        parts.append(f"at least {s['unseen_rows']} rows not in the store (run full)")
    return f"{started_prefix(s)}{visible(s['table'])}: " + ", ".join(parts) + f", {s['seconds']:.1f} s{rows_per_second(s['rows'], s['seconds'])}"
