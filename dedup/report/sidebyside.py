"""Two rows side by side for a terminal (`dedup explain`, `dedup review`): each field's two values
in columns of equal display width (CJK characters take two), the characters that differ marked
(difflib), with the field's similarity and its share of the pair's score."""

from __future__ import annotations

import difflib

from .cells import display_width, visible

MARK_OPEN, MARK_CLOSE = "[", "]"  # around differing characters without colour
REVERSE_ON, REVERSE_OFF = "\x1b[7m", "\x1b[27m"


def diff_marks(a: str, b: str) -> tuple[list[bool], list[bool]]:
    """Per character of ``a`` and of ``b``: whether it is not part of what the two share."""
    ma, mb = [True] * len(a), [True] * len(b)
    for block in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        ma[block.a:block.a + block.size] = [False] * block.size
        mb[block.b:block.b + block.size] = [False] * block.size
    return ma, mb


def wrap(text: str, marks: list[bool], width: int, color: bool) -> list[str]:
    """``text`` cut into lines of at most ``width`` display columns, each padded to ``width``,
    differing runs marked (reverse video with ``color``, else inside [ ])."""
    lines: list[str] = []
    out: list[str] = []
    used = 0
    marked = False

    def close_line():
        nonlocal out, used, marked
        if marked:
            out.append(REVERSE_OFF if color else MARK_CLOSE)
            used += 0 if color else 1
            marked = False
        lines.append("".join(out) + " " * max(0, width - used))
        out, used = [], 0

    for c, m in zip(text, marks):
        extra = 0 if color else (1 if m != marked else 0) + (1 if m else 0)  # an opening mark, room to close it
        if used + display_width(c) + extra > width and out:
            close_line()
        if m != marked:
            out.append((REVERSE_ON if m else REVERSE_OFF) if color else (MARK_OPEN if m else MARK_CLOSE))
            used += 0 if color else 1
            marked = m
        out.append(c)
        used += display_width(c)
    if out or not lines:
        close_line()
    return lines


def _bar(view: dict) -> str:
    """`` (threshold T)``, with the rule that set it when the recipe has several (explain)."""
    if view.get("threshold") is None:
        return ""
    rule = view.get("rule") or {}
    named = f": {rule['name']}, {rule['knob']}" if rule.get("knob") else ""
    if "details" in rule:  # rule distinct: its own score, not the similarity shown before
        named += f"; distinctive details {rule['details']:.3f}, about {rule['shared']} shared"
    if "numbers" in rule:  # rule numbers (or the numbers against a pair): the share of its numbers in common
        named += f"; numbers {rule['numbers']:.3f} of {rule['least']} in common"
    return f" (threshold {view['threshold']}{named})"


def render_pair(view: dict, width: int = 100, color: bool = False) -> str:
    """The lines of one pair's view (dedup.review.pair_view)."""
    a, b = view["a"], view["b"]
    col = max(12, (width - 3) // 2)
    sim = view.get("similarity")
    head = [f"{visible(a)}  <->  {visible(b)}"
            + (f"   similarity {sim:.3f}" if sim is not None else "   (no stored fingerprint for both rows)")
            + _bar(view)
            + (f", distance {view['distance']}" if view.get("distance") is not None else "")]
    if view.get("measure"):
        head.append(f"  measure: {view['measure']}")
    groups = view.get("groups") or {}
    head.append("  groups: " + ", ".join(f"{visible(k)} in {'group ' + str(g) if g else 'no group'}"
                                         for k, g in groups.items()))
    if view.get("path"):
        head.append("  linked through: " + _path_text(view["path"]))
    names = {f["name"] for f in view["fields"]}
    others = {n: x for n, x in (view.get("scores") or {}).items() if n not in names and x is not None}
    if others:
        head.append("  scores: " + ", ".join(f"{visible(n)} {x:.3f}" for n, x in others.items()))
    blocks = view.get("blocks") or []
    head.append(_listed(f"  shared blocks ({len(blocks)}): ", blocks, width) if blocks else "  shared blocks: none")
    d = view.get("decision")
    head.append("  decision: " + (f"{d['verdict']} ({d.get('source') or ''} {d.get('decided_at') or ''})".rstrip()
                                  + ("" if d.get("applied") else ", not applied yet") if d else "none"))
    lines = head + ["", _cell(visible(a), col) + " | " + _cell(visible(b), col)]
    for f in view["fields"]:
        label = f"-- {visible(f['name'])}"
        notes = [f"similarity {f['similarity']:.3f}" if f.get("similarity") is not None else None,
                 f"weight {f['weight']:.2f}" if f.get("weight") is not None else None,
                 f"share {f['share']:.0%}" if f.get("share") is not None else None]
        notes = [n for n in notes if n]
        lines.append(label + (f" ({', '.join(notes)})" if notes else ""))
        va, vb = visible(" ".join((f.get("a") or "").split())), visible(" ".join((f.get("b") or "").split()))
        if f.get("a") is None and f.get("b") is None:
            continue
        ma, mb = diff_marks(va, vb)
        left, right = wrap(va, ma, col, color), wrap(vb, mb, col, color)
        for n in range(max(len(left), len(right))):
            lines.append((left[n] if n < len(left) else " " * col) + " | " + (right[n] if n < len(right) else ""))
    return "\n".join(x.rstrip() for x in lines) + "\n"


def _listed(label: str, items: list[str], width: int) -> str:
    """``label`` and as many of ``items`` as fit in ``width`` columns, then … for the rest."""
    line = label
    for n, item in enumerate(items):
        more = " …" if n < len(items) - 1 else ""
        if n and len(line) + len(item) + 2 + len(more) > width:
            return line + " …"
        line += (", " if n else "") + item
    return line


def _cell(text: str, width: int) -> str:
    return text + " " * max(0, width - display_width(text))


def _path_text(path: list[dict]) -> str:
    """A group's chain of links between two rows: "1 -(0.910)- 7 -(0.882)- 12"."""
    out = visible(path[0]["a"])
    for link in path:
        sim = link.get("similarity")
        out += f" -({sim:.3f})- " if sim is not None else " -(?)- "
        out += visible(link["b"])
    return out
