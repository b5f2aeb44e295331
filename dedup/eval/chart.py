"""The picture of ``dedup eval``: a self-contained HTML page of inline SVG charts, and a terminal summary.

Both renderers take the dict ``dedup eval --format json`` prints. Every string from it is escaped; any
value may be None (shown as "–"); any of sweeps, histograms, false_pairs and missed_pairs may be
missing or empty. The page has no scripts and loads nothing: the charts are SVG written here.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass


METRICS = (("precision", "#1f77b4"), ("recall", "#ff7f0e"), ("f1", "#2ca02c"))
SCORES = tuple(m for m, _ in METRICS)
TRUE_COLOUR, FALSE_COLOUR = "#3182bd", "#e6550d"
PAIRS_SHOWN, TEXT_PAIRS_SHOWN, TEXT_CLIP = 50, 10, 200
WIDTH = 760
ZOOM_ABOVE = 0.8      # a zoomed chart is added when every score is at least this
LOG_RATIO = 100       # histogram counts use a log scale when the largest is this many times the smallest
esc = html.escape

STYLE = (
    "body{font-family:sans-serif;margin:2em auto;max-width:820px;padding:0 1em;color:#222}"
    "table{border-collapse:collapse;margin-bottom:1.5em}"
    "td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top}th{background:#f4f4f4}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums}td.text{max-width:22em;font-size:90%}"
    ".muted{color:#666}svg{display:block;max-width:100%;height:auto;margin:0.5em 0 1em}"
    "svg text{font-size:11px;fill:#333}.grid{stroke:#e6e6e6}.axis{stroke:#444;fill:none}"
    ".current,.threshold{stroke:#444;stroke-width:1.5;stroke-dasharray:5 4}"
)


# -- values --------------------------------------------------------------------------------------

def _is_num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _fmt(v, digits: int = 3) -> str:
    """A cell: ints with thousands separators, floats to ``digits`` places, None as "–"."""
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "–"
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def _score(v) -> str:
    """A precision, recall or F1: always three places, also when it arrives as the int 1."""
    return _fmt(float(v)) if _is_num(v) else _fmt(v)


def _fmt_value(v) -> str:
    """A knob value or tick label, as short as exact: 0.8, 8, 0.05."""
    return f"{v:g}" if isinstance(v, float) and math.isfinite(v) else _fmt(v)


def _same(a, b) -> bool:
    if _is_num(a) and _is_num(b):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return a is not None and a == b


def _ticks(lo: float, hi: float, count: int = 5, min_step: float = 0.0) -> list[float]:
    """Round numbers between lo and hi, about ``count`` of them (steps of 1, 2 or 5 × 10^k)."""
    if not hi > lo:
        return [lo]
    raw = max((hi - lo) / count, min_step)
    mag = 10 ** math.floor(math.log10(raw))
    step = min((m * mag for m in (1, 2, 5, 10)), key=lambda s: abs(math.log(s / raw)))
    first, last = math.ceil(lo / step - 1e-9), math.floor(hi / step + 1e-9)
    return [round(i * step, 10) for i in range(first, last + 1)]


def _zoom_floor(low: float) -> float:
    """The y-min of a zoomed chart: a little below the lowest score, on a hundredth."""
    return min(0.99, math.floor((low - 0.1 * (1 - low)) * 100) / 100)


# -- SVG -----------------------------------------------------------------------------------------

@dataclass
class _Frame:
    """A plot: the data box [x0, x1] × [y0, y1] drawn inside a width × height SVG, less margins."""
    width: int
    height: int
    x0: float
    x1: float
    y0: float
    y1: float
    left: int = 62
    right: int = 20
    top: int = 44
    bottom: int = 46

    def x(self, v: float) -> float:
        return self.left + (v - self.x0) / ((self.x1 - self.x0) or 1) * (self.width - self.left - self.right)

    def y(self, v: float) -> float:
        return self.height - self.bottom - (v - self.y0) / ((self.y1 - self.y0) or 1) * (
            self.height - self.top - self.bottom)

    def axes(self, xticks, yticks, xlabel: str, ylabel: str) -> list[str]:
        """Grid, ticks and labels; ticks are (position in data units, label) pairs."""
        left, right, top, bottom = self.left, self.width - self.right, self.top, self.height - self.bottom
        out = []
        for v, label in yticks:
            py = self.y(v)
            out.append(f"<line class='grid' x1='{left}' x2='{right}' y1='{py:.1f}' y2='{py:.1f}'/>"
                       f"<text x='{left - 6}' y='{py + 4:.1f}' text-anchor='end'>{esc(label)}</text>")
        for v, label in xticks:
            px = self.x(v)
            out.append(f"<line class='axis' x1='{px:.1f}' x2='{px:.1f}' y1='{bottom}' y2='{bottom + 5}'/>"
                       f"<text x='{px:.1f}' y='{bottom + 18}' text-anchor='middle'>{esc(label)}</text>")
        out.append(f"<path class='axis' d='M{left},{top}V{bottom}H{right}'/>"
                   f"<text x='{(left + right) / 2:.0f}' y='{self.height - 6}' text-anchor='middle'>{esc(xlabel)}</text>"
                   f"<text transform='translate(16 {(top + bottom) / 2:.0f}) rotate(-90)' "
                   f"text-anchor='middle'>{esc(ylabel)}</text>")
        return out

    def vline(self, v: float, label: str, cls: str) -> list[str]:
        """A dashed vertical marker with its label just above the plot."""
        if not min(self.x0, self.x1) <= v <= max(self.x0, self.x1):
            return []
        px = self.x(v)
        anchor, dx = ("end", -4) if px > self.width * 0.7 else ("start", 4)
        return [f"<line class='{cls}' x1='{px:.1f}' x2='{px:.1f}' y1='{self.top - 8}' "
                f"y2='{self.height - self.bottom}'/>"
                f"<text x='{px + dx:.1f}' y='{self.top - 10}' text-anchor='{anchor}'>{esc(label)}</text>"]


def _legend(items: list[tuple[str, str, str]], x: int) -> list[str]:
    """One row of (label, colour, "line" | "box" | "ring") swatches at the top of a chart."""
    out = []
    for label, colour, kind in items:
        if kind == "box":
            out.append(f"<rect x='{x}' y='6' width='12' height='10' fill='{colour}'/>")
        elif kind == "ring":
            out.append(f"<circle cx='{x + 6}' cy='11' r='5' fill='{colour}' stroke='#222' stroke-width='2'/>")
        else:
            out.append(f"<line x1='{x}' x2='{x + 16}' y1='11' y2='11' stroke='{colour}' stroke-width='2'/>")
        out.append(f"<text x='{x + 20}' y='15'>{esc(label)}</text>")
        x += 34 + 6 * len(label)
    return out


def _svg(cls: str, frame: _Frame, body: list[str], label: str) -> str:
    return (f"<svg class='{cls}' viewBox='0 0 {frame.width} {frame.height}' width='{frame.width}' "
            f"height='{frame.height}' role='img' aria-label='{esc(label)}'>" + "".join(body) + "</svg>")


# -- charts --------------------------------------------------------------------------------------

def _sweep_charts(sweep: dict) -> str:
    """Scores against the knob (plus a zoomed copy when all are high), then precision against recall."""
    knob = str(sweep.get("knob") or "knob")
    current = sweep.get("current")
    points = [p for p in sweep.get("points") or [] if p.get("value") is not None]
    if not points:
        return "<p class='muted'>no points in this sweep</p>"
    if all(_is_num(p["value"]) for p in points):
        points.sort(key=lambda p: p["value"])
        xs = [float(p["value"]) for p in points]
        cur = float(current) if _is_num(current) else None
        span = xs + ([cur] if cur is not None else [])
        lo, hi = min(span), max(span)
        pad = (hi - lo) * 0.04 or max(abs(lo) * 0.1, 1)
        domain = (lo - pad, hi + pad)
        plot_w = WIDTH - _Frame.left - _Frame.right
        roomy = len(xs) <= 12 and all((b - a) / (domain[1] - domain[0]) * plot_w >= 30 for a, b in zip(xs, xs[1:]))
        xticks = [(x, _fmt_value(p["value"])) for x, p in zip(xs, points)] if roomy else \
            [(t, f"{t:g}") for t in _ticks(lo, hi, 8)]
    else:   # categorical knob (a tokenizer name, say): evenly spaced in the order given
        xs = [float(i) for i in range(len(points))]
        cur = next((float(i) for i, p in enumerate(points) if _same(p["value"], current)), None)
        domain = (-0.5, len(points) - 0.5)
        xticks = [(x, _fmt_value(p["value"])) for x, p in zip(xs, points)]
    cur_label = f"current: {_fmt_value(current)}"
    scores = [p.get(m) for p in points for m, _ in METRICS if _is_num(p.get(m))]
    parts = [_score_chart("sweep", knob, xs, points, domain, xticks, 0.0, 300, cur, cur_label)]
    if scores and ZOOM_ABOVE <= min(scores) < 1:
        parts.append(f"<p class='muted'>zoomed: every score is at least {ZOOM_ABOVE:g}, so the y-axis starts "
                     f"at {_zoom_floor(min(scores)):g}</p>")
        parts.append(_score_chart("zoom", knob, xs, points, domain, xticks, _zoom_floor(min(scores)), 220,
                                  cur, cur_label))
    parts.append(_pr_chart(knob, points, current))
    return "\n".join(parts)


def _score_chart(cls, knob, xs, points, domain, xticks, y0, height, cur, cur_label) -> str:
    f = _Frame(WIDTH, height, domain[0], domain[1], y0, 1.0)
    body = f.axes(xticks, [(t, f"{t:g}") for t in _ticks(y0, 1.0)], knob, "score")
    if cur is not None:
        body += f.vline(cur, cur_label, "current")
    for name, colour in METRICS:
        path, pen = [], "M"
        for x, p in zip(xs, points):
            v = p.get(name)
            if not _is_num(v):      # a gap in the line
                pen = "M"
                continue
            path.append(f"{pen}{f.x(x):.1f},{f.y(v):.1f}")
            pen = "L"
            body.append(f"<circle cx='{f.x(x):.1f}' cy='{f.y(v):.1f}' r='3' fill='{colour}'><title>"
                        f"{esc(knob)} = {esc(_fmt_value(p['value']))}: {name} {_score(v)}</title></circle>")
        if path:
            body.append(f"<path d='{''.join(path)}' fill='none' stroke='{colour}' stroke-width='2'/>")
    body += _legend([(m, c, "line") for m, c in METRICS], f.left)
    return _svg(cls, f, body, f"precision, recall and F1 against {knob}")


def _pr_chart(knob: str, points: list[dict], current) -> str:
    """Precision against recall, one labelled point per knob value, joined in knob order."""
    pts = [p for p in points if _is_num(p.get("recall")) and _is_num(p.get("precision"))]
    rs, ps = [p["recall"] for p in pts], [p["precision"] for p in pts]
    zoom = bool(pts) and min(rs + ps) >= ZOOM_ABOVE
    rx0, py0 = (_zoom_floor(min(rs)), _zoom_floor(min(ps))) if zoom else (0.0, 0.0)
    f = _Frame(480, 380, rx0, 1.0, py0, 1.0)
    body = f.axes([(t, f"{t:g}") for t in _ticks(rx0, 1.0)], [(t, f"{t:g}") for t in _ticks(py0, 1.0)],
                  "recall" + (" (zoomed)" if zoom else ""), "precision" + (" (zoomed)" if zoom else ""))
    if len(pts) > 1:
        body.append("<path fill='none' stroke='#999' d='" + "".join(
            f"{'L' if i else 'M'}{f.x(p['recall']):.1f},{f.y(p['precision']):.1f}" for i, p in enumerate(pts)) + "'/>")
    for p in pts:
        px, py, label = f.x(p["recall"]), f.y(p["precision"]), esc(_fmt_value(p["value"]))
        ring = " stroke='#222' stroke-width='2' r='6'" if _same(p["value"], current) else " r='4'"
        body.append(f"<circle cx='{px:.1f}' cy='{py:.1f}'{ring} fill='#756bb1'><title>{esc(knob)} = {label}: "
                    f"precision {_score(p['precision'])}, recall {_score(p['recall'])}</title></circle>"
                    f"<text x='{px + 7:.1f}' y='{py - 6:.1f}'>{label}</text>")
    body += _legend([(f"{knob} value", "#756bb1", "box"), ("current", "#756bb1", "ring")], f.left)
    if not pts:
        body.append(f"<text x='{f.width / 2}' y='{f.height / 2}' text-anchor='middle'>no points</text>")
    return _svg("pr", f, body, f"precision against recall over {knob}")


def _counts(values, n: int) -> list[float]:
    values = list(values or [])[:n]
    return [v if _is_num(v) else 0 for v in values] + [0] * (n - len(values))


def _histogram_chart(hist: dict) -> str:
    """True and false candidate pairs per bin, side by side, with the threshold marked.

    Integer bins are exact values (a Hamming distance); float bins are the lower edges of equal bins
    (a similarity). The threshold line sits on the boundary between passing and failing pairs:
    after the threshold for "at_most" measures (distances), before it for "at_least" (similarities);
    ``accept`` in the histogram overrides the guess made from the measure's name.
    """
    measure = str(hist.get("measure") or "measure")
    bins = list(hist.get("bins") or [])
    n = len(bins)
    if not n:
        return "<p class='muted'>no candidate pairs</p>"
    true, false = _counts(hist.get("true"), n), _counts(hist.get("false"), n)
    numeric = all(_is_num(b) for b in bins)
    exact = not numeric or all(isinstance(b, int) for b in bins)
    pos = [float(b) if numeric else float(i) for i, b in enumerate(bins)]
    if exact:
        edges = [(x - 0.5, x + 0.5) for x in pos]
    else:
        last = pos[-1] - pos[-2] if n > 1 else 1.0
        edges = list(zip(pos, pos[1:] + [pos[-1] + last]))
    threshold, line, label = hist.get("threshold"), None, ""
    if _is_num(threshold) and numeric:
        at_most = hist.get("accept", "at_most" if "distance" in measure.lower() else "at_least") == "at_most"
        line = threshold + ((0.5 if at_most else -0.5) if exact else 0)
        label = f"threshold {_fmt_value(threshold)}: pairs {'≤' if at_most else '≥'} {_fmt_value(threshold)} pass"
    x0, x1 = edges[0][0], edges[-1][1]
    if line is not None:    # keep the threshold in view even when no pair lies beyond it
        pad = (x1 - x0) * 0.02
        x0, x1 = min(x0, line - pad), max(x1, line + pad)
    positive = [c for c in true + false if c > 0]
    log = bool(positive) and max(positive) >= LOG_RATIO * min(positive)
    scale = (lambda c: math.log10(1 + c)) if log else float
    f = _Frame(WIDTH, 300, x0, x1, 0.0, scale(max(positive, default=1)) * 1.05)
    if log:
        yticks = [(scale(10 ** k), f"{10 ** k:,}") for k in range(int(math.log10(max(positive))) + 1)]
    else:
        yticks = [(t, f"{t:,.0f}") for t in _ticks(0, f.y1, 5, min_step=1)]
    if exact:
        every = math.ceil(n / 16)
        xticks = [(x, _fmt_value(b)) for i, (x, b) in enumerate(zip(pos, bins)) if i % every == 0]
    else:
        xticks = [(t, f"{t:g}") for t in _ticks(edges[0][0], edges[-1][1], 10)]
    body = f.axes(xticks, yticks, measure, "pairs (log scale)" if log else "pairs")
    for (e0, e1), b, t, fa in zip(edges, bins, true, false):
        w = (e1 - e0) * 0.4     # two bars of 40% of the bin, 10% margins
        for x, c, colour, kind in ((e0 + w / 4, t, TRUE_COLOUR, "true"), (e0 + w * 5 / 4, fa, FALSE_COLOUR, "false")):
            if c > 0:
                body.append(f"<rect x='{f.x(x):.1f}' y='{f.y(scale(c)):.1f}' width='{f.x(x + w) - f.x(x):.1f}' "
                            f"height='{f.y(0) - f.y(scale(c)):.1f}' fill='{colour}'><title>{esc(_fmt_value(b))}: "
                            f"{_fmt(c)} {kind} pairs</title></rect>")
    if line is not None:
        body += f.vline(line, label, "threshold")
    body += _legend([("true pairs (same cluster)", TRUE_COLOUR, "box"),
                     ("false pairs (different clusters)", FALSE_COLOUR, "box")], f.left)
    note = (f"<p class='muted'>the largest count is {LOG_RATIO}× the smallest or more, "
            "so bar heights are log10(1 + pairs)</p>" if log else "")
    return note + _svg("hist", f, body, f"true and false candidate pairs by {measure}")


# -- page ----------------------------------------------------------------------------------------

def _text_cell(text) -> str:
    if text is None:
        return "<td class='text'>–</td>"
    text = str(text)
    if len(text) <= TEXT_CLIP:
        return f"<td class='text'>{esc(text)}</td>"
    return f"<td class='text' title='{esc(text)}'>{esc(text[:TEXT_CLIP - 1])}…</td>"


def pairs_total(result: dict, key: str) -> int | None:
    """How many false (or missed) pairs there were, of which the result keeps only the first few:
    predicted (true) pairs less the correct ones; None for a result that does not say."""
    cur = result.get("current") or {}
    of = cur.get("predicted_pairs" if key == "false_pairs" else "true_pairs")
    return of - cur["correct_pairs"] if isinstance(of, int) and isinstance(cur.get("correct_pairs"), int) else None


def shown_count(pairs: list, total: int | None, cap: int) -> str:
    """``N`` when every pair is shown, else ``N of TOTAL shown`` (a display cap, said so)."""
    total = max(total or 0, len(pairs))
    shown = min(len(pairs), cap)
    return f"{total:,}" if shown == total else f"{shown:,} of {total:,} shown"


def _pair_table(title: str, note: str, pairs: list[dict] | None, total: int | None = None) -> str:
    if pairs is None:
        return ""
    parts = [f"<h2>{title}</h2><p class='muted'>{note}</p>"]
    if not pairs:
        return parts[0] + "<p>none</p>"
    if max(total or 0, len(pairs)) > min(len(pairs), PAIRS_SHOWN):
        parts.append(f"<p class='muted'>the first {shown_count(pairs, total, PAIRS_SHOWN)}</p>")
    parts.append("<table><tr><th>a</th><th>b</th><th>distance</th><th>similarity</th><th>a cluster</th>"
                 "<th>b cluster</th><th>a text</th><th>b text</th></tr>")
    for p in pairs[:PAIRS_SHOWN]:
        parts.append("<tr>" + "".join(f"<td>{esc(_fmt(p.get(k)))}</td>" for k in ("a", "b"))
                     + f"<td class='num'>{esc(_fmt(p.get('distance')))}</td>"
                     + f"<td class='num'>{esc(_fmt(p.get('similarity')))}</td>"
                     + "".join(f"<td>{esc(_fmt(p.get(k)))}</td>" for k in ("a_cluster", "b_cluster"))
                     + _text_cell(p.get("a_text")) + _text_cell(p.get("b_text")) + "</tr>")
    parts.append("</table>")
    return "\n".join(parts)


def render_eval_html(result: dict) -> str:
    """One self-contained page: current metrics, sweep charts, pair-measure histograms, pair tables."""
    table = _fmt(result.get("table"))
    cur = result.get("current") or {}
    cols = SCORES + ("groups", "predicted_pairs", "true_pairs", "correct_pairs")
    parts = [
        "<!doctype html><html lang='zh'><head><meta charset='utf-8'>",
        f"<title>dedup eval: {esc(table)}</title><style>{STYLE}</style></head><body>",
        f"<h1>dedup eval: {esc(table)}</h1>",
        f"<p>{esc(_fmt(result.get('rows')))} rows, {esc(_fmt(result.get('truth_clusters')))} truth clusters</p>",
        "<table><tr><th>setting</th>" + "".join(f"<th>{c.replace('_', ' ')}</th>" for c in cols) + "</tr>"
        f"<tr><td>{esc(_fmt(cur.get('label')))}</td>"
        + "".join(f"<td class='num'>{esc(_score(cur.get(c)) if c in SCORES else _fmt(cur.get(c)))}</td>" for c in cols)
        + "</tr></table>",
    ]
    sweeps = result.get("sweeps") or []
    if sweeps:
        parts.append("<h2>Sweeps</h2><p class='muted'>each knob varied alone, the others as configured; "
                     "the dashed line is the configured value</p>")
        for s in sweeps:
            parts.append(f"<h3>{esc(_fmt(s.get('knob')))}</h3>\n{_sweep_charts(s)}")
    hists = result.get("histograms") or []
    if hists:
        parts.append("<h2>Candidate pairs</h2><p class='muted'>how a pair measure separates pairs from one "
                     "truth cluster (true) from pairs across clusters (false)</p>")
        for h in hists:
            parts.append(f"<h3>{esc(_fmt(h.get('measure')))}</h3>\n{_histogram_chart(h)}")
    parts.append(_pair_table("False pairs", "grouped together, but in different truth clusters",
                             result.get("false_pairs"), pairs_total(result, "false_pairs")))
    parts.append(_pair_table("Missed pairs", "in one truth cluster, but not grouped together",
                             result.get("missed_pairs"), pairs_total(result, "missed_pairs")))
    parts.append("</body></html>\n")
    return "\n".join(p for p in parts if p)


# -- terminal ------------------------------------------------------------------------------------
