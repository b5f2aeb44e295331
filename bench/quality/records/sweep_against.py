"""The sweep that chose the evidence against of the record recipe (``against*``,
dedup.index.record_fields; issue 22, session 42): through the config `dedup init` writes, TUNING
sets only.

    python -m bench.quality.records.sweep_against [--sets S16|probe|SPEC,...] [--grid NAME,...]

Each row is bench/quality/records/where.py's (P / R / F1 of the groups `dedup full` makes, the
largest false group and the false groups over 5 rows). S16: sweep_joint's 12 sets and the four
larger ones of sessions 40-41; probe: four of them (labelled 20k, train 5k, copies40 5k, copies
20k). A setting is ``factor/below/top/needs[/agree]``: a field among the ``top`` of most say, filled in
both rows and scoring under ``below``, weighs ``factor`` times, in pairs with ``needs`` such fields
and at most ``agree`` distinctive fields equal. A suffix ``+iN`` (s43) excuses a value of at most N
characters starting with the other's first character (an initial; ``initial``), ``+sX`` scores such
a pair at least X (``initial_score``), ``+nD`` excuses two values of one first letter whose lengths
differ by at most D (``against_near``), ``+aX`` counts a distinctive field scoring X or more as
agreeing (``against_agree_at``); ``off+i1+s0.5`` is the initial score without the rule. Session 45:
``+fN`` keeps any field in at most N of the floor's pair keys (``floor_share``), ``+pX`` sets the
floor's budget (``floor_partners``); ``shipped`` is ``Records.against`` and, since session 46, ``Records.group_check`` (main's line). Session 46:
``+oX`` keeps a row out of a group it would join by one link when it is unlike all the others on a
distinctive field where they agree X or more (``odd``, dedup.index.cluster_odd), ``+wN`` the ways (``odd_ways``), ``+uN`` on how many fields (``odd_unlike``).
``+gX`` needs a distinctive field filled in both scoring X or excused (``guard``, record_fields.shared);
``+cX``: the keys the share brings in at most X partners over the best field (``floor_spread``);
``+rN``: the capped keys that fill the floor's room keep each field in at most N pair keys (``floor_room``).
Session 47: ``+mN`` a lone link where a row misses N distinctive fields is no way in unless the pair
agrees on ``+kN`` of them (``strip_agree``, 2) scoring ``+eX`` (``strip_at``, 0.8) (record_odd.stripped_pair);
``+h1``: or on all those both rows hold, when fewer (``strip_held``); ``+xX``: only where some field both
rows hold scores under X (``strip_unlike``); ``+y1``: one distinctive key field agreeing will do (``strip_key``).
"""

from __future__ import annotations

import argparse

from bench.quality.records.sweep_joint import SETS
from bench.quality.records.where import table
from dedup.methods.records import Records

S16 = SETS + ",copies40:10000:0,copies40:40000:1,copies:40000:1,copies20:20000:2"
PROBE = "labelled:20000:0,train:5000:0,copies40:5000:0,copies:20000:1"


def setting(name: str) -> dict:
    """``off`` or ``factor/below/top/needs[/agree]``, then ``+iN`` / ``+sX``, as RecordScheme settings."""
    rule, *extra = name.split("+")
    out: dict = {}
    for e in extra:
        key, kind = {"i": ("initial", int), "n": ("against_near", int), "s": ("initial_score", float),
                     "a": ("against_agree_at", float), "f": ("floor_share", int),
                     "p": ("floor_partners", float), "o": ("odd", float), "w": ("odd_ways", int),
                     "u": ("odd_unlike", int), "g": ("guard", float),
                     "c": ("floor_spread", float), "r": ("floor_room", int), "m": ("strip", int),
                     "k": ("strip_agree", int), "e": ("strip_at", float), "h": ("strip_held", lambda v: v == "1"),
                     "x": ("strip_unlike", float), "y": ("strip_key", lambda v: v == "1")}[e[0]]
        out[key] = kind(e[1:])
    if rule == "shipped":
        return {**Records.against, **Records.group_check, **out}
    if rule == "off":
        return out
    factor, below, top, needs, *agree = rule.split("/")
    return {"against": float(factor), "against_below": float(below), "against_top": int(top),
            "against_needs": int(needs), **({"against_agree": int(agree[0])} if agree else {}), **out}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default="S16")
    ap.add_argument("--grid", default="off,2/0.3/3/1,3/0.2/3/1,10/0.45/3/2")
    a = ap.parse_args(argv)
    sets = {"S16": S16, "probe": PROBE}.get(a.sets, a.sets)
    table(sets.split(","), [setting(g) for g in a.grid.split(",")], True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
