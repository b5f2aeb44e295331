"""The review commands of ``dedup``: explain, decide, review, decisions export/import (registered on
dedup.cli.main; kept apart for size)."""

from __future__ import annotations

import codecs
import csv
import datetime as _dt
import io
import os
import shutil
import sys
from contextlib import contextmanager, nullcontext

import click

from .cli import Context, emit, handle_errors, main
from .cli_options import table_option as _table_option
from .errors import ConfigError
from .index.decisions import Decision
from .report.render import FORMULA_START, check_output, csv_cell

CSV_HEADER = ["a", "b", "verdict", "decided_at", "source", "similarity", "reviewer", "note", "action"]


@contextmanager
def _opened(obj: Context, table: str | None, with_source: bool = True, read_only: bool = False):
    """(config, table config, store, source or None, scorer or None)."""
    from .db.source import Source
    from .runs.explain import Scorer
    from .store import open_store

    config = obj.config()
    tcfg = config.table(table)
    store = open_store(config.store_url, read_only=read_only)
    try:
        with Source(config.source_url, tcfg, config.batch_size) if with_source else nullcontext() as source:
            yield config, tcfg, store, source, Scorer.of(config, tcfg, store)
    finally:
        store.close()


def _width(width: int | None) -> int:
    return width or max(60, min(160, shutil.get_terminal_size((100, 24)).columns))


def _color(color: bool | None) -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ if color is None else color


_view_options = [click.option("--width", type=click.IntRange(40, 400), help="Columns (default: the terminal's)."),
                 click.option("--color/--no-color", default=None, help="Mark differences in reverse video "
                              "(default: on a terminal); without colour they are inside [ ].")]


def _with(options):
    def deco(fn):
        for opt in reversed(options):
            fn = opt(fn)
        return fn
    return deco


@main.command()
@click.argument("key1", help="A row's key (the key column's value).")
@click.argument("key2", help="The other row's key.")
@_table_option
@click.option("--json", "as_json", is_flag=True, help="The view as JSON.")
@_with(_view_options)
@click.pass_obj
@handle_errors
def explain(obj: Context, key1: str, key2: str, table: str | None, as_json: bool, width: int | None,
            color: bool | None) -> None:
    """Why two rows are (or are not) grouped: side by side, differing characters marked.

    Shows the pair's similarity as the recipe scores it (minhash: estimated Jaccard of the
    contents; records: each field's score, weight and share; simhash: cosine from the Hamming
    distance), the blocks (candidate keys) the rows share, their groups and any decision on them.
    Reads the store and the source; writes nothing.
    """
    import json

    from .report.sidebyside import render_pair
    from .review import pair_view

    with _opened(obj, table, read_only=True) as (_config, tcfg, store, source, scorer):
        view = pair_view(store, tcfg, source, scorer, key1, key2)
    if as_json:
        click.echo(json.dumps(view, ensure_ascii=False, indent=2))
    else:
        click.echo(render_pair(view, _width(width), _color(color)), nl=False, color=_color(color))


@main.command()
@_table_option
@click.option("--group", type=int, help="Review only this group's links.")
@click.option("--calibrate", is_flag=True,
              help="Instead: sample candidate pairs across the similarity range near the threshold (below it "
                   "too) to label; then `dedup eval --decisions` suggests a threshold.")
@click.option("--per-bin", default=5, show_default=True, type=click.IntRange(1, 1000),
              help="--calibrate: pairs per similarity bin (0.05 wide).")
@click.option("--seed", default=0, show_default=True, help="--calibrate: seed of the sample.")
@click.option("--limit", type=click.IntRange(1), help="Show at most this many pairs.")
@click.option("--reviewer", metavar="NAME", help="Who answers, kept with each decision (default: the login name).")
@_with(_view_options)
@click.pass_obj
@handle_errors
def review(obj: Context, table: str | None, group: int | None, calibrate: bool, per_bin: int, seed: int,
           limit: int | None, reviewer: str | None, width: int | None, color: bool | None) -> None:
    """Go through pairs and answer same / different / skip / quit (s, d, k, q).

    Without --calibrate: the links of the stored groups not yet decided, weakest first. Each
    answer is stored as a decision at once; at the end (or on q) the groups are updated with them
    (as `dedup decide` does). Reads answers from standard input, so it can be scripted.
    """
    from .cli_decide import login_name, regrouped
    from .report.sidebyside import render_pair
    from .review import group_pairs, pair_view, review_loop
    from .runs.calibrate import candidates, sample
    from .runs.decide import apply_pending

    with _opened(obj, table) as (config, tcfg, store, source, scorer):
        if calibrate:
            if scorer is None:
                raise ConfigError(f"nothing stored for {tcfg.name!r} under these settings: run `dedup full` first")
            decided = {d.pair for d in store.decisions(tcfg.name)}
            pairs = sample(candidates(scorer), scorer.threshold, per_bin, seed, decided)
        else:
            pairs = group_pairs(store, scorer, tcfg.name, group)
        pairs = pairs[:limit] if limit else pairs
        if not pairs:
            click.echo("nothing to review")
            return
        tally = review_loop(
            pairs, lambda a, b: render_pair(pair_view(store, tcfg, source, scorer, a, b), _width(width), _color(color)),
            _ask,
            lambda text: click.echo(text, color=_color(color)), lambda d: store.put_decisions(tcfg.name, [d]),
            "calibrate" if calibrate else "review", reviewer or login_name())
    click.echo(tally.line())
    if tally.decisions:
        click.echo(regrouped(apply_pending(config, tcfg.name)))


def _ask() -> str:
    """One answer; the end of the input is q."""
    try:
        return click.prompt("same, different, skip or quit? [s/d/k/q]", default="", show_default=False,
                            prompt_suffix=" ")
    except (click.Abort, EOFError):
        return "q"


@main.group()
def decisions() -> None:
    """Export or import a table's decisions as CSV (a,b,verdict,decided_at,source,similarity,reviewer,note,action)."""


@decisions.command("export")
@_table_option
@click.option("-o", "--output", metavar="FILE", help="Write to FILE instead of stdout.")
@click.pass_obj
@handle_errors
def export_decisions(obj: Context, table: str | None, output: str | None) -> None:
    """Write the table's decisions as CSV, oldest first."""
    check_output(output)
    with _opened(obj, table, with_source=False, read_only=True) as (_c, tcfg, store, _s, _sc):
        found = store.decisions(tcfg.name)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_HEADER)
    for d in found:
        w.writerow([csv_cell(d.a), csv_cell(d.b), d.verdict, d.decided_at.isoformat(sep=" ") if d.decided_at else "",
                    d.source, "" if d.similarity is None else d.similarity, csv_cell(d.reviewer or ""),
                    csv_cell(d.note or ""), d.action or ""])
    emit(buf.getvalue(), output, f"wrote {len(found)} decisions to {output}")


@decisions.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False), help="The CSV to read.")
@_table_option
@click.pass_obj
@handle_errors
def import_decisions(obj: Context, file: str, table: str | None) -> None:
    """Read decisions from a CSV (as `decisions export` writes; a,b,verdict is enough; UTF-8, or
    UTF-16 with its byte order mark; files without the reviewer, note and action columns too), replacing earlier decisions on the same pairs, and regroup.
    A key that names no row of the table's last run is refused (exit 2), nothing imported."""
    from .cli_decide import regrouped
    from .runs.decide import decide as record, now

    config = obj.config()
    name = config.table(table).name
    found = read_decisions_csv(file, now())
    result = record(config, name, found, check_keys=True)
    click.echo(f"imported {len(found)} decisions; {regrouped(result)}")


def read_decisions_csv(path: str, when: _dt.datetime) -> list[Decision]:
    out: list[Decision] = []
    with open(path, "rb") as fh:
        text = _decoded(path, fh.read())
    try:
        first = text.split("\n", 1)[0]
        tabs = "\t" in first and "," not in first  # Excel's "Unicode text" is UTF-16 with tabs
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter="\t" if tabs else ","))
    except csv.Error as e:
        raise ConfigError(f"{path}: not a CSV file: {e}") from None
    for n, row in enumerate(rows, 1):
        if not row or (n == 1 and [c.strip().lower() for c in row[:3]] == CSV_HEADER[:3]):
            continue
        cells = [c.strip() for c in row] + [""] * len(CSV_HEADER)
        a, b, reviewer, note = (c[1:] if c.startswith("'") and c[1:].startswith(FORMULA_START) else c
                                for c in (cells[0], cells[1], cells[6], cells[7]))
        try:
            at = _dt.datetime.fromisoformat(cells[3]) if cells[3] else when
            sim = float(cells[5]) if cells[5] else None
            out.append(Decision(a, b, cells[2].lower(), at, cells[4] or "import", sim, None, reviewer or None,
                                note or None, cells[8] or None))
        except ValueError as e:
            raise ConfigError(f"{path}: line {n}: {e}") from None
    return out


def _decoded(path: str, data: bytes) -> str:
    """The text of a decisions file: UTF-8 (a BOM or not), or UTF-16 with its BOM (as Excel saves
    "Unicode text"); anything else is refused in one line."""
    encoding = "utf-16" if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE) else "utf-8-sig"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError:
        text = "\0"
    if "\0" in text:
        raise ConfigError(f"{path}: not UTF-8 text (nor UTF-16 with a byte order mark): save it as CSV UTF-8")
    return text


def eval_decisions(config, table: str | None, fmt: str, output: str | None) -> None:
    """`dedup eval --decisions`: a threshold suggested from the stored decisions (dedup.eval.partial)."""
    import json

    from .eval.partial import decision_quality, render_decision_quality
    from .runs.explain import Scorer
    from .store import open_store

    tcfg = config.table(table)
    store = open_store(config.store_url, read_only=True)
    try:
        scorer = Scorer.of(config, tcfg, store)
        if scorer is None:
            raise ConfigError(f"nothing stored for {tcfg.name!r} under these settings: run `dedup full` first")
        result = decision_quality(scorer, store.decisions(tcfg.name))
    finally:
        store.close()
    text = json.dumps(result, ensure_ascii=False, indent=2) + "\n" if fmt == "json" else render_decision_quality(result)
    s = result.get("suggested")
    emit(text, output, f"suggested {result['knob']} {s['threshold']}; wrote {output}" if s else f"wrote {output}")
