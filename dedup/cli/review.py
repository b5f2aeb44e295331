"""`dedup explain` (one pair side by side) and `dedup review` (the loop of answers), over dedup.review."""

from __future__ import annotations

import json
import os
import shutil
import sys

import click

from .base import Context, handle_errors
from .decide import login_name, regrouped
from .options import format_option, output_option, table_option, with_options
from .output import check_output, emit


def _width(width: int | None) -> int:
    return width or max(60, min(160, shutil.get_terminal_size((100, 24)).columns))


def _color(color: bool | None) -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ if color is None else color


_view_options = [click.option("--width", type=click.IntRange(40, 400), help="Columns (default: the terminal's)."),
                 click.option("--color/--no-color", default=None, help="Mark differences in reverse video "
                              "(default: on a terminal); without colour they are inside [ ].")]


@click.command()
@click.argument("key1", help="A row's key (the key column's value).")
@click.argument("key2", help="The other row's key.")
@table_option
@format_option(("text", "json"), "text: side by side; json: the view as data.", json_alias="As `--format json`.")
@output_option("Write to FILE instead of stdout.")
@with_options(_view_options)
@click.pass_obj
@handle_errors
def explain(obj: Context, key1: str, key2: str, table: str | None, fmt: str, output: str | None, width: int | None,
            color: bool | None) -> None:
    """Why two rows are (or are not) grouped: side by side, differing characters marked.

    Shows the pair's similarity as the recipe scores it (minhash: estimated Jaccard of the
    contents; records: each field's score, weight and share; simhash: cosine from the Hamming
    distance), the blocks (candidate keys) the rows share, their groups and any decision on them.
    Reads the store and the source; writes nothing.
    """
    from ..report.sidebyside import render_pair
    from ..review.pairs import explain_pair

    check_output(output)
    view = explain_pair(obj.config(), table, key1, key2)
    if fmt == "json":
        emit(json.dumps(view, ensure_ascii=False, indent=2) + "\n", output)
    elif output:
        emit(render_pair(view, _width(width), bool(color)), output)
    else:
        click.echo(render_pair(view, _width(width), _color(color)), nl=False, color=_color(color))


@click.command()
@table_option
@click.option("--group", type=int, help="Review only this group's links.")
@click.option("--calibrate", is_flag=True,
              help="Instead: sample candidate pairs across the similarity range near the threshold (below it "
                   "too) to label; then `dedup eval --decisions` suggests a threshold.")
@click.option("--per-bin", default=5, show_default=True, type=click.IntRange(1, 1000),
              help="--calibrate: pairs per similarity bin (0.05 wide).")
@click.option("--seed", default=0, show_default=True, help="--calibrate: seed of the sample.")
@click.option("--limit", type=click.IntRange(1), help="Show at most this many pairs.")
@click.option("--reviewer", metavar="NAME", help="Who answers, kept with each decision (default: the login name).")
@with_options(_view_options)
@click.pass_obj
@handle_errors
def review(obj: Context, table: str | None, group: int | None, calibrate: bool, per_bin: int, seed: int,
           limit: int | None, reviewer: str | None, width: int | None, color: bool | None) -> None:
    """Go through pairs and answer same / different / skip / quit (s, d, k, q).

    Without --calibrate: the links of the stored groups not yet decided, weakest first. Each
    answer is stored as a decision at once; at the end (or on q) the groups are updated with them
    (as `dedup decide` does). Reads answers from standard input, so it can be scripted.
    """
    from ..report.sidebyside import render_pair
    from ..review.session import run_review

    tally, changed = run_review(
        obj.config(), table, show=lambda view: render_pair(view, _width(width), _color(color)), ask=_ask,
        echo=lambda text: click.echo(text, color=_color(color)), reviewer=reviewer or login_name(),
        calibrate=calibrate, group=group, per_bin=per_bin, seed=seed, limit=limit)
    if tally is None:
        click.echo("nothing to review")
        return
    click.echo(tally.line())
    if tally.decisions:
        click.echo(regrouped(changed))


def _ask() -> str:
    """One answer; the end of the input is q."""
    try:
        return click.prompt("same, different, skip or quit? [s/d/k/q]", default="", show_default=False,
                            prompt_suffix=" ")
    except (click.Abort, EOFError):
        return "q"
