"""The caseworker's HTML report: one self-contained page in Chinese or English with a summary,
the groups largest first behind a filter box, each row's date, display columns (by their plain
labels) and text excerpt with what differs from the group's first row highlighted (phones and ids
as whole values, Latin text by words, Chinese by characters), the row it is most similar to with
the similarity and the rule that accepted the link, each group's weakest link, deleted rows
marked, decisions and history shown. Every value from the data is HTML-escaped; the only script
is the page's own."""

from __future__ import annotations

from html import escape

from .diff import differences
from .html_assets import SCRIPT, STYLE
from .labels import LABELS, date_text, percent, rule_text
from .links import closest_pairs, pair_similarity, reading_order, weakest_pair

EXCERPT_CHARS = 400  # a text column is shown (and compared) up to this many characters
ROWS_SHOWN = 200  # a larger group (a mass petition) shows its first rows and counts the rest


def _esc(value) -> str:
    return escape(str(value), quote=True)


def excerpt(value: str | None) -> str | None:
    if value is None:
        return None
    text = " ".join(value.split())
    return text if len(text) <= EXCERPT_CHARS else text[:EXCERPT_CHARS - 1] + "…"


def marked(reference: str | None, value: str | None) -> str:
    """``value`` escaped, with what differs from ``reference`` in <mark> and what it lacks in <del>
    (dedup.report.diff: whole phones and ids, Latin words, Chinese characters)."""
    if value is None:
        return ""
    if reference is None or reference == value:
        return _esc(value)
    out = []
    for tag, was, now in differences(reference, value):
        if tag in ("replace", "delete") and was:
            out.append(f"<del>{_esc(was)}</del>")
        if tag == "equal":
            out.append(_esc(now))
        elif now:
            out.append(f"<mark>{_esc(now)}</mark>")
    return "".join(out)


def to_html(report: dict, display: tuple[str, ...] = (), lang: str = "en", excerpt: tuple[str, ...] = ()) -> str:
    L = LABELS.get(lang, LABELS["en"])
    date = report.get("date_column")
    cols = [c for c in display if c not in ("key", "distance", date)]
    texts = [c for c in excerpt if c not in cols and c not in ("key", "distance", date)]
    labels = report.get("labels") or {}
    groups = report["groups"]
    title = f"{L['title']}: {report['table']}"
    parts = [
        f"<!doctype html><html lang='{'zh-CN' if lang == 'zh' else 'en'}'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{_esc(title)}</title><style>{STYLE}</style></head><body>",
        f"<header><h1>{_esc(title)}</h1>", _summary(report, L),
        f"<p class='legend'>{_esc(L['legend_similarity'])} {_esc(_grouping(report, L))}</p>",
        f"<p class='legend'>{_esc(L['legend_marks'])}</p>",
        "<div class='tools'>",
        f"<input id='filter' type='search' placeholder='{_esc(L['filter'])}' aria-label='{_esc(L['filter'])}'>",
        f"<label>{_esc(L['sort'])} <select id='order'><option value='report'>{_esc(L['in_order'])}</option>"
        f"<option value='size'>{_esc(L['by_size'])}</option><option value='id'>{_esc(L['by_id'])}</option>"
        f"<option value='weakest'>{_esc(L['by_weakest'])}</option></select></label>",
        f"<span id='shown' data-template='{_esc(L['shown'])}'>"
        f"{_esc(L['shown'].format(n=len(groups), total=len(groups)))}</span></div></header>",
        "<main id='groups'>",
    ]
    if report.get("note"):
        parts.append(f"<p class='note'>{_esc(report['note'])}</p>")
    if not groups:
        parts.append(f"<p>{_esc(L['none'])}</p>")
    heads = [L["key"], *([L["date"] if date not in labels else labels[date]] if date else []),
             *(labels.get(c, c) for c in (*cols, *texts)), L["link"]]
    for g in groups:
        parts.append(_group(g, cols, texts, set(excerpt), L, date, heads))
    parts.append("</main>")
    parts.append(_skipped(report.get("skipped") or [], L))
    parts.append(f"<script>{SCRIPT}</script></body></html>\n")
    return "\n".join(parts)


def _grouping(report: dict, L: dict) -> str:
    """How the recipe that made the groups joined their rows."""
    if report.get("match", "simhash") == "simhash":
        return L["legend_simhash"].format(max=report.get("max_distance", ""))
    return L["legend_minhash"]


def _summary(report: dict, L: dict) -> str:
    groups = report["groups"]
    rows = [r for g in groups for r in g["rows"]]
    items = [(len(groups), L["groups"]), (len(rows), L["rows_in_groups"]),
             (max((g["size"] for g in groups), default=0), L["largest"])]
    deleted = sum(1 for r in rows if r.get("deleted"))
    if deleted:
        items.append((deleted, L["deleted_rows"]))
    if report.get("skipped"):
        items.append((len(report["skipped"]), L["skipped"]))
    if report.get("omitted_groups"):
        items.append((report["omitted_groups"], L["omitted"]))
    if report.get("since_run"):
        items.append((report["since_run"]["id"], L["since_run"]))
    lis = "".join(f"<li><b>{_esc(n)}</b> {_esc(label)}</li>" for n, label in items)
    return f"<ul class='summary'>{lis}<li>{_esc(L['recipe'])}: {_esc(report.get('match', 'simhash'))}</li></ul>"


def _group(g: dict, cols: list[str], texts: list[str], long: set[str], L: dict, date: str | None,
           heads: list[str]) -> str:
    """A group's heading, weakest link, history, decisions and rows (earliest filed first when the
    report has a date column); ``long`` columns are shown as excerpts."""
    change = g.get("change") or g.get("status")  # the report's run: {"kinds": [...], ...} (dedup.report.runs)
    kinds = change["kinds"] if isinstance(change, dict) else [change] if change else []
    badge = "".join(f"<span class='badge'>{_esc(L['change'].get(k, k))}</span>" for k in kinds)
    weak = weakest_pair(g)
    weak_sim = pair_similarity(weak) if weak else 1.0
    out = [f"<section class='group' id='g{_esc(g['group'])}' data-id='{_esc(g['group'])}' data-size='{_esc(g['size'])}' "
           f"data-weakest='{weak_sim:.4f}'>",
           f"<h2><a href='#g{_esc(g['group'])}'>{_esc(L['group'].format(id=g['group']))}</a> · "
           f"{_esc(L['rows'].format(n=g['size']))}{badge}</h2>"]
    if weak is not None:
        rule = rule_text(weak.get("rule"), L)
        note = L["weakest_note"].format(a=weak["a"], b=weak["b"], sim=percent(weak_sim), rule=f" ({rule})" if rule else "")
        out.append(f"<p class='weakest'>{_esc(note)}</p>")
    history = []
    if g.get("merged_from"):
        history.append(L["merged_from"].format(ids=", ".join(map(str, g["merged_from"]))))
    split_from = g.get("split_from") or (change.get("split_from") if isinstance(change, dict) else None)
    if split_from:
        split = split_from if isinstance(split_from, list) else [split_from]
        history.append(L["split_from"].format(ids=", ".join(map(str, split))))
    if history:
        out.append(f"<p class='history'>{_esc('; '.join(history))}</p>")
    out.append(_decisions(g, L))
    out.append("<table><thead><tr>" + "".join(f"<th>{_esc(h)}</th>" for h in heads) + "</tr></thead><tbody>")
    links = closest_pairs(g)
    rows = reading_order(g["rows"], date)
    first = rows[0] if rows else {}
    weak_keys = {weak["a"], weak["b"]} if weak else set()
    for r in rows[:ROWS_SHOWN]:
        gone = f"<span class='gone'>{_esc(L['deleted'])}</span>" if r.get("deleted") else ""
        new = f"<span class='badge'>{_esc(L['new_row'])}</span>" if r.get("new") else ""
        cells = [f"<td class='key{' weak' if r['key'] in weak_keys else ''}'>{_esc(r['key'])}{new}{gone}</td>"]
        if date:
            cells.append(f"<td class='date{'' if r.get(date) is not None else ' null'}'>{_esc(date_text(r.get(date)))}</td>")
        for c in (*cols, *texts):
            value = r.get(c)
            shown = excerpt(value) if c in long else value
            ref = None if r is first else (excerpt(first.get(c)) if c in long else first.get(c))
            klass = "null" if value is None else "text" if c in long else ""
            cells.append(f"<td class='{klass}'>{marked(ref, shown)}</td>")
        cells.append(_link_cell(r["key"], links.get(r["key"]), weak, L))
        out.append(f"<tr class='{'deleted' if r.get('deleted') else ''}'>{''.join(cells)}</tr>")
    out.append("</tbody></table>")
    if len(g["rows"]) > ROWS_SHOWN:
        out.append(f"<p class='more'>{_esc(L['more_rows'].format(n=len(g['rows']) - ROWS_SHOWN))}</p>")
    out.append("</section>")
    return "\n".join(p for p in out if p)


def _link_cell(key: str, pair: dict | None, weak: dict | None, L: dict) -> str:
    """The row it is most similar to, the similarity, and the rule that accepted the link."""
    if pair is None:
        return "<td class='link'></td>"
    other = pair["b"] if pair["a"] == key else pair["a"]
    rule = rule_text(pair.get("rule"), L)
    klass = "link weakest" if pair is weak else "link"
    return (f"<td class='{klass}' data-similarity='{pair_similarity(pair):.4f}'>{_esc(other)} · "
            f"<b>{_esc(percent(pair_similarity(pair)))}</b>" + (f" <span class='rule'>{_esc(rule)}</span>" if rule else "")
            + "</td>")


def _decisions(g: dict, L: dict) -> str:
    """Decisions on the group's pairs, when the report carries them (``decisions`` or a pair's ``decision``)."""
    found = list({(d.get("a"), d.get("b")): d for d in [*(p for p in g.get("pairs", ()) if p.get("decision")),
                                                        *(g.get("decisions") or [])]}.values())  # a pair once
    if not found:
        return ""
    items = []
    for d in found:
        what = d.get("decision")
        items.append(f"<li>{_esc(d.get('a', ''))} – {_esc(d.get('b', ''))}: {_esc(L.get(what, what))}</li>")
    return f"<div class='decisions'>{_esc(L['decisions'])}<ul>{''.join(items)}</ul></div>"


def _skipped(skipped: list[dict], L: dict) -> str:
    if not skipped:
        return ""
    rows = "".join(f"<tr><td>{_esc(s['key'])}</td><td>{_esc(s['reason'])}</td><td>{_esc(s.get('detail') or '')}</td></tr>"
                   for s in skipped)
    return (f"<details><summary>{_esc(L['skipped_title'])} ({len(skipped)})</summary><table><thead><tr>"
            f"<th>{_esc(L['key'])}</th><th>{_esc(L['reason'])}</th><th>{_esc(L['detail'])}</th></tr></thead>"
            f"<tbody>{rows}</tbody></table></details>")
