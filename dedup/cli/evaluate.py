"""`dedup eval`: precision and recall against labelled truth (dedup.eval), or the threshold the stored
decisions suggest (dedup.review.evaluate)."""

from __future__ import annotations

import json

import click

from ..eval import DEFAULT_DISTANCES, DEFAULT_SIMILARITIES
from .base import Context, handle_errors
from .options import format_option, output_option, quiet_option, table_option
from .output import check_output, emit
from .terminal import Progress


def _numbers(kind, text: str) -> list:
    try:
        return [kind(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise click.BadParameter(f"expected numbers separated by commas, got {text!r}") from None


@click.command("eval")
@table_option
@click.option("--truth", "truth_file", type=click.Path(exists=True, dir_okay=False),
              help="CSV of key,cluster: rows with one cluster label are duplicates of each other.")
@click.option("--truth-column", help="A column of the table holding the cluster label instead.")
@format_option(("text", "json", "html"), "text: summary and sweeps; json: everything; html: a page with the charts.")
@output_option()
@click.option("--distances", default=",".join(map(str, DEFAULT_DISTANCES)), show_default=True,
              help="simhash.max_distance values to sweep (match.method simhash only).")
@click.option("--similarities", default=",".join(map(str, DEFAULT_SIMILARITIES)), show_default=True,
              help="Thresholds to sweep: match.threshold (record tables: match.record_threshold); under "
                   "match.method simhash, min_similarity (a fields fingerprint: min_field_similarity).")
@click.option("--decisions", "use_decisions", is_flag=True,
              help="No truth: use the decisions in the store (`dedup review --calibrate`) as partial truth and "
                   "suggest a threshold with its estimated precision and recall (text or json).")
@quiet_option
@click.pass_obj
@handle_errors
def eval_(obj: Context, table: str | None, truth_file: str | None, truth_column: str | None, fmt: str,
          output: str | None, distances: str, similarities: str, use_decisions: bool, quiet: bool) -> None:
    """Measure duplicate detection against labelled truth: pairwise precision, recall and F1.

    Reads and fingerprints the table as `full` would (nothing is written to the store), then
    sweeps the recipe's threshold over the --similarities values (match.threshold, or
    match.record_threshold for record tables; under match.method simhash: max_distance and
    min_similarity), shows the similarity of true and false candidate pairs, and lists the false
    and the missed pairs with their texts, so you can see why.
    """
    from ..errors import ConfigError

    if not use_decisions and bool(truth_file) == bool(truth_column):
        raise ConfigError("give either --truth FILE.csv or --truth-column COLUMN (or --decisions)")
    check_output(output)
    if use_decisions:
        return _decisions(obj.config(), table, fmt, output)
    config = obj.config()
    name = config.table(table).name
    with Progress(name, quiet) as progress:
        result = _run_eval(config, name, truth_file, truth_column, distances, similarities, progress)
    if result.get("unlabelled_rows"):
        click.echo(f"warning: {result['unlabelled_rows']:,} of {result['rows']:,} rows have no truth label; "
                   "each counts as a cluster of its own", err=True)
    c = result["current"]
    emit(_rendered(result, fmt), output, f"precision {c['precision']:.4f}, recall {c['recall']:.4f}, F1 {c['f1']:.4f}; wrote {output}")


def _run_eval(config, name: str, truth_file: str | None, truth_column: str | None, distances: str,
              similarities: str, progress: Progress) -> dict:
    from ..eval.metrics import load_truth_csv
    from ..eval.sweep import run_eval

    return run_eval(config, name, truth=load_truth_csv(truth_file) if truth_file else None,
                    truth_column=truth_column, distances=_numbers(int, distances),
                    similarities=_numbers(float, similarities), progress=progress, on_total=progress.total)


def _rendered(result: dict, fmt: str) -> str:
    from ..eval.chart import render_eval_html
    from ..eval.summary import render_eval_text

    if fmt == "json":
        return json.dumps(result, ensure_ascii=False, indent=2) + "\n"
    return render_eval_html(result) if fmt == "html" else render_eval_text(result)


def _decisions(config, table: str | None, fmt: str, output: str | None) -> None:
    """`--decisions`: the threshold the stored decisions suggest (text or json)."""
    from ..eval.partial import render_decision_quality
    from ..review.evaluate import eval_decisions

    result = eval_decisions(config, table)
    text = json.dumps(result, ensure_ascii=False, indent=2) + "\n" if fmt == "json" else render_decision_quality(result)
    s = result.get("suggested")
    emit(text, output, f"suggested {result['knob']} {s['threshold']}; wrote {output}" if s else f"wrote {output}")
