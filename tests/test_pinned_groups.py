"""Groups pinned before the architecture work (issue 9): a refactor must find exactly these.

Each case generates a table (the demo sample, the labelled petitions and persons of bench/datasets/labelled),
runs a full run at explicit settings (the defaults of 2026-11-22, written out so that a later change
of defaults does not move the pin) and compares a digest of the groups' member keys with the one
recorded on main at f303617 (the minhash recipe's cases: recorded 2026-11-24, when it became the
default, issue 14). A failure means the recipe's output changed: if that is intended, say
why in the commit and record the new digest.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from dedup.config import parse_config
from dedup.runs.full import run_full

# groups.clustering (issue 22): the simhash cases were pinned with connected components and keep
# them; on the minhash cases star clustering (the default since issue 22) finds exactly the pinned
# groups, so they are pinned with it (bench/results/history.md, "Groups that hold together").
SETTINGS = {"match": {"method": "simhash"}, "simhash": {"max_distance": 12, "sketch_bits": 256, "min_similarity": 0.84, "min_field_similarity": 0.75},
            "text": {"idf": False, "tf": "log", "workers": 1}, "groups": {"clustering": "components"}}
MINHASH = {"match": {"method": "minhash", "threshold": 0.75, "identity_threshold": 0.45, "short_chars": 60,
                     "short_threshold": 0.95, "short_identity_threshold": 0.20,
                     "common_share": 0.002, "common_rows": 10, "common_floor": 0.3, "digits": "keep",
                     "distinct_floor": 0.75,  # rule distinct (issue 22, after the pin) off: the pinned recipe
                     "numbers_floor": 0.75,  # rule numbers (issue 22, after the pin) off too
                     "confirm_margin": 0.0},  # the confirming values (s47, after the pin) off too
           "text": {"idf": False, "tf": "log", "workers": 1}, "groups": {"clustering": "star"}}
PETITION_FIELDS = {"name": "short", "phone": "short", "address": "short", "title": "text", "content": "text"}
PERSON_FIELDS = {"name": {"kind": "chars", "n": 1, "weight": 2}, "birth_date": {"kind": "chars", "weight": 2},
                 "id_number": {"kind": "chars", "weight": 3}, "phone": {"kind": "chars", "weight": 1.5},
                 "address": {"kind": "chars", "weight": 1.5}}
# case -> (groups, rows in groups, sha256 of the groups' keys as JSON)
PINNED = {
    "demo simhash k=12": (103, 292, "122d7f2f7ee16eb8ed240c99debd07bf6ce53e1783f592b67938551c0452c81b"),
    "demo papers' recipe": (70, 180, "b392bf2f72c8484eff5939ebd17ba65a94c10b4d8ef2f5565de26baeb4835719"),
    "labelled petitions simhash k=12": (306, 892, "f1547c6442c4945b36490dba4836ec7b1ba3974052e167c635ab0ec30c1bd881"),
    "labelled persons simhash fields": (307, 784, "e0a41a782eaafe5e2aa9475e11b7bb50e2f442db94fb7654e0f9187f596bc65c"),
    "demo minhash": (106, 300, "7d6dd1ad88e78f97dfd3f736f40de429282871810ab5cfdc62099cf0f7754138"),
    # issue 22 (what the table shares weighs less, digits kept): one collective copy fewer in a group
    "labelled petitions minhash": (309, 900, "af05aef4eb14e02441c5e78baf62e5ca2b573d8b49a7f1ed5321a6ca4c46aa22"),
}


def digest(groups) -> tuple[int, int, str]:
    keys = [g.keys for g in groups]
    return len(keys), sum(len(k) for k in keys), hashlib.sha256(json.dumps(keys).encode()).hexdigest()


def _demo(tmp_path, rows=2000, seed=42):
    from dedup.demo.generator import generate_petitions, write_sample_db

    url = f"sqlite:///{tmp_path / 'demo.db'}"
    write_sample_db(url, generate_petitions(rows, seed=seed))
    return url, "petitions", PETITION_FIELDS


def _labelled(tmp_path, name, rows=2000, seed=0):
    from bench.datasets.labelled import persons, petitions

    module, fields = (petitions, PETITION_FIELDS) if name == "petitions" else (persons, PERSON_FIELDS)
    path = tmp_path / f"{name}.db"
    module.write_sqlite(getattr(module, f"generate_{name}")(rows, seed), str(path), name)
    return f"sqlite:///{path}", name, fields


def _run(tmp_path, source_url, table, fields, paper=False, settings=SETTINGS):
    cfg = {"source": {"url": source_url}, "store": {"url": f"sqlite:///{tmp_path / 'store.db'}"},
           "tables": {table: {"key": "id", "fields": fields}}, **json.loads(json.dumps(settings))}
    if paper:
        cfg["simhash"] = {"max_distance": 3, "sketch_bits": 64, "min_similarity": None}
        cfg["text"].update({"tf": "raw"})
        cfg["tables"][table]["fingerprint"] = "row"
    return digest(run_full(parse_config(cfg), table).groups)


CASES = {
    "demo simhash k=12": lambda p: _run(p, *_demo(p)),
    "demo papers' recipe": lambda p: _run(p, *_demo(p), paper=True),
    "labelled petitions simhash k=12": lambda p: _run(p, *_labelled(p, "petitions")),
    "labelled persons simhash fields": lambda p: _run(p, *_labelled(p, "persons")),
    "demo minhash": lambda p: _run(p, *_demo(p), settings=MINHASH),
    "labelled petitions minhash": lambda p: _run(p, *_labelled(p, "petitions"), settings=MINHASH),
}


@pytest.mark.parametrize("case", list(CASES))
def test_groups_are_the_pinned_ones(case, tmp_path):
    assert CASES[case](tmp_path) == tuple(PINNED[case])
