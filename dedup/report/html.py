"""The caseworker's HTML report: one self-contained page in Chinese or English with a summary,
the groups largest first behind a filter box, each row's display columns and text excerpt with
what differs from the group's first row highlighted, deleted rows marked, decisions and history
shown. Every value from the data is HTML-escaped; the only script is the page's own."""

from __future__ import annotations

import difflib
from html import escape

from .html_assets import SCRIPT, STYLE
from .labels import LABELS
from .links import closest_links

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
    """``value`` escaped, with what differs from ``reference`` in <mark> and what it lacks in <del>."""
    if value is None:
        return ""
    if reference is None or reference == value:
        return _esc(value)
    out = []
    ops = difflib.SequenceMatcher(None, reference, value, autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in ops:
        if tag in ("replace", "delete") and i2 > i1:
            out.append(f"<del>{_esc(reference[i1:i2])}</del>")
        if tag == "equal":
            out.append(_esc(value[j1:j2]))
        elif j2 > j1:
            out.append(f"<mark>{_esc(value[j1:j2])}</mark>")
    return "".join(out)


def to_html(report: dict, display: tuple[str, ...] = (), lang: str = "en", excerpt: tuple[str, ...] = ()) -> str:
    L = LABELS.get(lang, LABELS["en"])
    cols = [c for c in display if c not in ("key", "distance")]
    texts = [c for c in excerpt if c not in cols and c not in ("key", "distance")]
    groups = report["groups"]
    title = f"{L['title']}: {report['table']}"
    parts = [
        f"<!doctype html><html lang='{'zh-CN' if lang == 'zh' else 'en'}'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{_esc(title)}</title><style>{STYLE}</style></head><body>",
        f"<header><h1>{_esc(title)}</h1>", _summary(report, L),
        f"<p class='legend'>{_esc(L['legend_distance'])} {_esc(_grouping(report, L))}</p>",
        f"<p class='legend'>{_esc(L['legend_marks'])}</p>",
        "<div class='tools'>",
        f"<input id='filter' type='search' placeholder='{_esc(L['filter'])}' aria-label='{_esc(L['filter'])}'>",
        f"<label>{_esc(L['sort'])} <select id='order'><option value='report'>{_esc(L['in_order'])}</option>"
        f"<option value='size'>{_esc(L['by_size'])}</option><option value='id'>{_esc(L['by_id'])}</option>"
        "</select></label>",
        f"<span id='shown' data-template='{_esc(L['shown'])}'>"
        f"{_esc(L['shown'].format(n=len(groups), total=len(groups)))}</span></div></header>",
        "<main id='groups'>",
    ]
    if report.get("note"):
        parts.append(f"<p class='note'>{_esc(report['note'])}</p>")
    if not groups:
        parts.append(f"<p>{_esc(L['none'])}</p>")
    for g in groups:
        parts.append(_group(g, cols, texts, set(excerpt), L))
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


def _group(g: dict, cols: list[str], texts: list[str], long: set[str], L: dict) -> str:
    """A group's heading, history, decisions and rows; ``long`` columns are shown as excerpts."""
    change = g.get("change") or g.get("status")  # the report's run: {"kinds": [...], ...} (dedup.report.runs)
    kinds = change["kinds"] if isinstance(change, dict) else [change] if change else []
    badge = "".join(f"<span class='badge'>{_esc(L['change'].get(k, k))}</span>" for k in kinds)
    out = [f"<section class='group' id='g{_esc(g['group'])}' data-id='{_esc(g['group'])}' data-size='{_esc(g['size'])}'>",
           f"<h2><a href='#g{_esc(g['group'])}'>{_esc(L['group'].format(id=g['group']))}</a> · "
           f"{_esc(L['rows'].format(n=g['size']))}{badge}</h2>"]
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
    out.append("<table><thead><tr>" + "".join(f"<th>{_esc(h)}</th>" for h in (
        L["key"], L["distance"], L["link"], *cols, *texts)) + "</tr></thead><tbody>")
    links = closest_links(g)
    first = g["rows"][0] if g["rows"] else {}
    for r in g["rows"][:ROWS_SHOWN]:
        gone = f"<span class='gone'>{_esc(L['deleted'])}</span>" if r.get("deleted") else ""
        new = f"<span class='badge'>{_esc(L['new_row'])}</span>" if r.get("new") else ""
        other, sim = links.get(r["key"], (None, None))
        link = "" if other is None else f"{_esc(other)} ({sim:.3f})"
        cells = [f"<td class='key'>{_esc(r['key'])}{new}{gone}</td>", f"<td class='num'>{_esc(r['distance'])}</td>",
                 f"<td>{link}</td>"]
        for c in (*cols, *texts):
            value = r.get(c)
            shown = excerpt(value) if c in long else value
            ref = None if r is first else (excerpt(first.get(c)) if c in long else first.get(c))
            klass = "null" if value is None else "text" if c in long else ""
            cells.append(f"<td class='{klass}'>{marked(ref, shown)}</td>")
        out.append(f"<tr class='{'deleted' if r.get('deleted') else ''}'>{''.join(cells)}</tr>")
    out.append("</tbody></table>")
    if len(g["rows"]) > ROWS_SHOWN:
        out.append(f"<p class='more'>{_esc(L['more_rows'].format(n=len(g['rows']) - ROWS_SHOWN))}</p>")
    out.append("</section>")
    return "\n".join(p for p in out if p)


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
