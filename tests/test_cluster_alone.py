"""A row left alone joins through one strong pair (dedup.index.clusters ``alone``, issue 22, s38):
a sparse or corrupted copy that matches the group's first row well but too few of the head's other
rows (1 of 3) joins that group when the pair scores the recipe's ``alone`` bar; below it, or facing
a member decided different, it stays alone; record tables say so in the stamp; a full then
incremental run places it as one full run does."""

from __future__ import annotations

from dedup.config import parse_config
from dedup.index.clusters import cluster
from dedup.index.decisions import Decision
from dedup.index.groups import Pair
from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental
from dedup.runs.recipe import Recipe
from test_cluster_gather import _config, _typo
from test_clusters import close, fps
from test_incremental import memberships, store_url  # noqa: F401  (store_url: the four-backend fixture)
from test_record_floor_runs import write
from test_records_recipe import FIELDS, learned_scheme, table

# group 1, 2, 3 (centre 1); 4 pairs with 1 only: 1 of the head of 3, under half
PAIRS = [Pair("1", "2", 1), Pair("1", "3", 1), Pair("2", "3", 1), Pair("1", "4", 1)]
CHECK = close({frozenset(p) for p in ("12", "13", "23", "14")})


def groups(alone, decisions=(), pairs=PAIRS):
    return [g.keys for g in cluster(pairs, fps("1234"), CHECK, decisions, gather=True, alone=alone)]


def test_a_row_matching_one_head_row_joins_only_through_a_strong_pair():
    assert groups(None) == [["1", "2", "3"]]  # the head rule: 4 needs 2 of 3
    assert groups(close({frozenset("14")})) == [["1", "2", "3", "4"]]  # its pair with 1 is strong
    assert groups(close(set())) == [["1", "2", "3"]]  # a verified pair, but not a strong one


def test_a_row_decided_different_from_a_member_stays_alone():
    apart = [Decision("3", "4", "different")]
    assert groups(close({frozenset("14")}), apart) == [["1", "2", "3"]]


def test_an_earlier_row_left_alone_is_gathered_through_a_strong_pair():
    # group 1, 3, 4 (centre 1); 2 pairs only with 5, which joins the group: 2 faces the head 1, 3, 4
    # and matches 1 of it (test_cluster_gather's case)
    pairs = [Pair("1", "3", 1), Pair("1", "4", 1), Pair("1", "5", 1), Pair("3", "4", 1), Pair("2", "5", 1)]
    check = close({frozenset(p) for p in ("13", "14", "15", "34", "25", "35", "12")})

    def run(alone):
        return [g.keys for g in cluster(pairs, fps("12345"), check, gather=True, alone=alone)]
    assert run(None) == [["1", "3", "4", "5"]]
    assert run(close({frozenset("12")})) == [["1", "2", "3", "4", "5"]]
    assert run(close({frozenset("25")})) == [["1", "3", "4", "5"]]  # strong with 5, not with a head row


def test_record_tables_have_the_rule_and_stamp_it_text_tables_not():
    def recipe(fields):
        return Recipe.of(parse_config({"source": {"url": "sqlite://"}, "tables": {"t": {"key": "id", "fields": fields}}}),
                         "t")
    persons, text = recipe({f: "short" for f in FIELDS}), recipe({"content": "text"})
    assert persons.alone == persons.stamp["alone"] == 0.8  # a stored record table asks for one full run
    assert text.alone is None and "alone" not in text.stamp


# --- a full then incremental run places a row alone as one full run does ---------------------------

def _rows() -> list[dict]:
    """300 people, then two corrupted copies A, B of person 10 (all three pair), then Y: person 10
    with its id, status and address missing, which matches 10 exactly but neither A nor B."""
    rows = table(300, seed=8)
    p = rows[9]
    a = dict(p, birth_date=_typo(p["birth_date"], 3), given_name=p["given_name"][0] + "玮", address=None)
    b = dict(p, given_name=a["given_name"], phone=None)
    y = dict(p, id_number=None, status=None, address=None)
    return [dict(r, id=n) for n, r in enumerate(rows + [a, b, y], 1)]


def test_full_then_incremental_places_a_row_alone_as_one_full_run(store_url, tmp_path):  # noqa: F811
    rows = _rows()
    scheme, sig = learned_scheme([{f: r[f] for f in FIELDS} for r in rows])
    p, a, b, y = 9, len(rows) - 3, len(rows) - 2, len(rows) - 1
    assert scheme.verify(sig[[p, p, a, p]], sig[[a, b, b, y]]).all()
    assert not scheme.verify(sig[[a, b]], sig[[y, y]]).any()  # Y matches 1 of the head 10, A, B
    src = tmp_path / "src.db"
    write(src, rows[:-1], FIELDS)
    cfg = _config(f"sqlite:///{src}", store_url)
    run_full(cfg, "persons")
    assert ["10", "301", "302"] in memberships(cfg, "persons")
    write(src, rows[-1:], FIELDS)
    assert run_incremental(cfg, "persons").rows_read == 1
    ref = _config(f"sqlite:///{src}", f"sqlite:///{tmp_path / 'ref.db'}")
    run_full(ref, "persons")
    assert memberships(cfg, "persons") == memberships(ref, "persons")
    assert ["10", "301", "302", "303"] in memberships(ref, "persons")  # Y joined through its pair with 10
