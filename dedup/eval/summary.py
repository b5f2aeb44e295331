"""`dedup eval` in a terminal: the current scores, one table per sweep, the first false and missed pairs."""

from __future__ import annotations

from ..report.cells import display_width, visible
from ..report.render import rows_per_second
from .chart import SCORES, TEXT_PAIRS_SHOWN, _fmt, _fmt_value, _same, _score, pairs_total, shown_count


def _text(v) -> str:
    """A cell from the data (a table name, key or cluster label), its control characters escaped."""
    return visible(_fmt(v))


def _columns(header: list[str], rows: list[list[str]], left: tuple[int, ...] = ()) -> list[str]:
    """Aligned lines: columns in ``left`` are left-justified, the rest right-justified."""
    widths = [max(display_width(r[i]) for r in [header] + rows) for i in range(len(header))]

    def line(cells):
        return "  " + "  ".join(c + " " * (w - display_width(c)) if i in left else " " * (w - display_width(c)) + c
                                for i, (c, w) in enumerate(zip(cells, widths)))
    return [line(r).rstrip() for r in [header] + rows]


def render_eval_text(result: dict) -> str:
    """A compact terminal summary: current metrics, one table per sweep, the first false and missed pairs."""
    cur = result.get("current") or {}
    took = result.get("seconds")
    took = f", {took:.1f} s{rows_per_second(result.get('rows') or 0, took)}" if isinstance(took, (int, float)) else ""
    lines = [f"{_text(result.get('table'))}: {_fmt(result.get('rows'))} rows, "
             f"{_fmt(result.get('truth_clusters'))} truth clusters{took}",
             f"current ({_text(cur.get('label'))}): precision {_score(cur.get('precision'))}  "
             f"recall {_score(cur.get('recall'))}  f1 {_score(cur.get('f1'))}  groups {_fmt(cur.get('groups'))}",
             f"  pairs: {_fmt(cur.get('predicted_pairs'))} predicted, {_fmt(cur.get('true_pairs'))} true, "
             f"{_fmt(cur.get('correct_pairs'))} correct"]
    for s in result.get("sweeps") or []:
        current = s.get("current")
        lines += ["", f"sweep {_fmt(s.get('knob'))} (* = current, {_fmt_value(current)})"]
        rows = [["*" if _same(p.get("value"), current) else "", _fmt_value(p.get("value"))]
                + [_score(p.get(k)) for k in SCORES] + [_fmt(p.get("groups"))] for p in s.get("points") or []]
        lines += _columns(["", "value", "precision", "recall", "f1", "groups"], rows, left=(0,))
    for title, key in (("false pairs", "false_pairs"), ("missed pairs", "missed_pairs")):
        pairs = result.get(key)
        if pairs is None:
            continue
        lines += ["", f"{title}: {shown_count(pairs, pairs_total(result, key), TEXT_PAIRS_SHOWN)}"]
        rows = [[_text(p.get(k)) for k in ("a", "b", "distance", "similarity", "a_cluster", "b_cluster")]
                for p in pairs[:TEXT_PAIRS_SHOWN]]
        if rows:
            lines += _columns(["a", "b", "distance", "similarity", "a cluster", "b cluster"], rows, left=(0, 1, 4, 5))
    return "\n".join(lines) + "\n"
