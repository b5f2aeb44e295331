"""The ``dedup eval`` command (registered on dedup.cli.main; kept apart for size)."""

from __future__ import annotations

import click

from .cli import Context, emit, handle_errors, main
from .eval import DEFAULT_DISTANCES, DEFAULT_SIMILARITIES
from .report.render import check_output
from .terminal import Progress


def _numbers(kind, text: str) -> list:
    try:
        return [kind(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise click.BadParameter(f"expected numbers separated by commas, got {text!r}") from None


@main.command("eval")
@click.option("-t", "--table", help="Configured table (optional when the config has one table).")
@click.option("--truth", "truth_file", type=click.Path(exists=True, dir_okay=False),
              help="CSV of key,cluster: rows with one cluster label are duplicates of each other.")
@click.option("--truth-column", help="A column of the table holding the cluster label instead.")
@click.option("-f", "--format", "fmt", type=click.Choice(["text", "json", "html"]), default="text", show_default=True,
              help="text: summary and sweeps; json: everything; html: a page with the charts.")
@click.option("-o", "--output", metavar="FILE", help="Write to FILE instead of stdout (checked before any work).")
@click.option("--distances", default=",".join(map(str, DEFAULT_DISTANCES)), show_default=True,
              help="simhash.max_distance values to sweep (match.method simhash only).")
@click.option("--similarities", default=",".join(map(str, DEFAULT_SIMILARITIES)), show_default=True,
              help="Thresholds to sweep: match.threshold (record tables: match.record_threshold); under "
                   "match.method simhash, min_similarity (a fields fingerprint: min_field_similarity).")
@click.option("--decisions", "use_decisions", is_flag=True,
              help="No truth: use the decisions in the store (`dedup review --calibrate`) as partial truth and "
                   "suggest a threshold with its estimated precision and recall (text or json).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
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
    from .errors import ConfigError
    from .eval.chart import render_eval_html
    from .eval.metrics import load_truth_csv
    from .eval.summary import render_eval_text
    from .eval.sweep import run_eval

    if use_decisions:
        check_output(output)
        from .cli_review import eval_decisions

        return eval_decisions(obj.config(), table, fmt, output)
    if bool(truth_file) == bool(truth_column):
        raise ConfigError("give either --truth FILE.csv or --truth-column COLUMN (or --decisions)")
    check_output(output)
    config = obj.config()
    name = config.table(table).name
    progress = Progress(name, quiet)
    try:
        result = run_eval(config, name, truth=load_truth_csv(truth_file) if truth_file else None,
                          truth_column=truth_column, distances=_numbers(int, distances),
                          similarities=_numbers(float, similarities), progress=progress, on_total=progress.total)
    finally:
        progress.close()
    if result.get("unlabelled_rows"):
        click.echo(f"warning: {result['unlabelled_rows']:,} of {result['rows']:,} rows have no truth label; "
                   "each counts as a cluster of its own", err=True)
    if fmt == "json":
        import json

        text = json.dumps(result, ensure_ascii=False, indent=2) + "\n"
    else:
        text = render_eval_html(result) if fmt == "html" else render_eval_text(result)
    c = result["current"]
    emit(text, output, f"precision {c['precision']:.4f}, recall {c['recall']:.4f}, F1 {c['f1']:.4f}; wrote {output}")
