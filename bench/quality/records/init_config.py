"""The field specs `dedup init` writes for a record table (kinds, n, weights), so that the record
sweeps score the recipe users run (issue 22: every sweep before scored each field ``short`` at
weight 1, while `dedup init` weighs names 2, ids 3 and makes short codes ``chars`` of n = 1).

``init_specs(rows, fields)`` writes the rows to a throwaway SQLite table (as
bench/datasets/records/copies.py does), runs `dedup init`'s guessing on it and parses each chosen
field as the config loader does. ``rename`` maps a column to another name first (a renamed id
column: does `dedup init` still see it?).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from bench.datasets.records.copies import write
from dedup.config.model import FieldSpec
from dedup.config.parse import _Problems, _parse_field
from dedup.db.guess import guess_starter


def renamed(rows: list[dict], fields: tuple[str, ...], rename: dict[str, str]) -> tuple[list[dict], tuple[str, ...]]:
    """The rows and fields with columns renamed (``{old: new}``)."""
    if not rename:
        return rows, fields
    rows = [{rename.get(k, k): v for k, v in r.items()} for r in rows]
    return rows, tuple(rename.get(f, f) for f in fields)


def init_specs(rows: list[dict], fields: tuple[str, ...]) -> tuple[tuple[FieldSpec, ...], list[int]]:
    """`dedup init`'s field specs for a table of ``rows`` over ``fields``, and the index in
    ``fields`` of each (a column init leaves out is not compared)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        write(rows, {str(r["id"]): "0" for r in rows}, out, fields)
        starter = guess_starter(f"sqlite:///{out / 'persons.db'}", "persons", out / "dedup.yaml")
    problems = _Problems("dedup init")
    specs = [_parse_field(c.column, c.spec, f"fields.{c.column}", problems) for c in starter.fields]
    if any(s is None for s in specs):
        raise ValueError(f"init wrote a field the config loader refuses: {problems}")
    chosen = tuple(s for s in specs if s is not None)
    return chosen, [fields.index(s.name) for s in chosen]


def describe(specs: tuple[FieldSpec, ...]) -> str:
    """One line: each field's kind, n and weight as init chose them."""
    return ", ".join(f"{s.name} {s.kind}{'' if s.n is None else s.n} {s.weight:g}" for s in specs)
