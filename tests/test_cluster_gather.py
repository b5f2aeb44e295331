"""Star clustering's gathering (dedup.index.clusters ``gather``, issue 22): a
corrupted copy whose only matches are later copies is brought into their group when a later row
joins it, checked against the group's head like a later row; record and text tables gather; a full
then incremental run gathers as one full run does."""

from __future__ import annotations

import random

from dedup.config import parse_config
from dedup.index.clusters import cluster
from dedup.index.decisions import Decision
from dedup.index.groups import Pair
from dedup.runs.full import run_full
from dedup.runs.incremental import run_incremental
from dedup.runs.recipe import Recipe
from test_clusters import close, fps
from helpers import config_for, make_table, petition
from test_incremental import append, memberships, store_url  # noqa: F401  (store_url: the four-backend fixture)
from test_record_floor_runs import write
from test_records_recipe import FIELDS, learned_scheme, table


def groups(pairs, keys, check, gather, decisions=()):
    return [g.keys for g in cluster(pairs, fps(keys), check, decisions, gather=gather)]


def test_a_copy_matched_only_by_a_later_copy_is_gathered():
    # 1 and 2 are copies too far apart to pair; 3 matches both and joins 1 (the first centre)
    pairs = [Pair("1", "3", 1), Pair("2", "3", 1)]
    check = close({frozenset("13"), frozenset("23")})
    assert groups(pairs, "123", check, gather=False) == [["1", "3"]]  # 2 started a group no row joined
    g = cluster(pairs, fps("123"), check, gather=True)
    assert [x.keys for x in g] == [["1", "2", "3"]]  # in key order: a group's head is its lowest keys
    assert {(p.a, p.b) for p in g[0].pairs} == {("1", "3"), ("2", "3")}  # 2's link: the row that gathered it


def test_a_gathered_row_must_match_half_of_the_head():
    # group 1, 3, 4 (centre 1); 2 pairs only with 5, which joins the group: 2 faces the head 1, 3, 4
    pairs = [Pair("1", "3", 1), Pair("1", "4", 1), Pair("1", "5", 1), Pair("3", "4", 1), Pair("2", "5", 1)]
    base = {frozenset(p) for p in ("13", "14", "15", "34", "25", "35")}
    assert groups(pairs, "12345", close(base | {frozenset("12")}), gather=True) == [["1", "3", "4", "5"]]  # 1 of 3
    assert groups(pairs, "12345", close(base | {frozenset("12"), frozenset("23")}), gather=True) == \
        [["1", "2", "3", "4", "5"]]  # 2 of 3


def test_a_row_decided_different_from_a_member_is_not_gathered():
    pairs = [Pair("1", "3", 1), Pair("2", "3", 1)]
    check = close({frozenset("13"), frozenset("23"), frozenset("12")})
    apart = [Decision("1", "2", "different")]
    assert groups(pairs, "123", check, gather=True, decisions=apart) == [["1", "3"]]


def test_record_and_text_tables_gather():
    def recipe(fields):
        return Recipe.of(parse_config({"source": {"url": "sqlite://"}, "tables": {"t": {"key": "id", "fields": fields}}}),
                         "t")
    persons, text = recipe({f: "short" for f in FIELDS}), recipe({"content": "text"})
    assert persons.gather and persons.stamp["gather"] is True  # a stored record table asks for one full run
    assert text.gather and text.stamp["gather"] is True  # a stored text table too (bench/results/recall-s35.md)


# --- a full then incremental run gathers as one full run does --------------------------------------

def _typo(value: str, at: int) -> str:
    return value[:at] + ("9" if value[at] != "9" else "8") + value[at + 1:]


def _rows() -> list[dict]:
    """300 people, then a heavily corrupted copy X of person 10 (too far from it to pair) and a
    copy Z that matches both: X is gathered when Z arrives."""
    rows = table(300, seed=8)
    p = rows[9]
    x = dict(p, given_name=p["given_name"][0] + "玮", phone=None, id_number=_typo(p["id_number"], 3), address=None,
             birth_date=_typo(p["birth_date"], 8))
    rows += [x, dict(p, given_name=x["given_name"], phone=None)]
    return [dict(r, id=n) for n, r in enumerate(rows, 1)]


def _config(source, store):
    return parse_config({"source": {"url": source}, "store": {"url": store},
                         "tables": {"persons": {"key": "id", "watermark": "updated_at",
                                                "fields": {f: "short" for f in FIELDS}}}})


def test_full_then_incremental_gathers_as_one_full_run(store_url, tmp_path):  # noqa: F811
    rows = _rows()
    scheme, sig = learned_scheme([{f: r[f] for f in FIELDS} for r in rows])
    x, z = len(rows) - 2, len(rows) - 1
    assert not scheme.verify(sig[[9]], sig[[x]])[0] and scheme.verify(sig[[x, 9]], sig[[z, z]]).all()
    src = tmp_path / "src.db"
    write(src, rows[:-1], FIELDS)
    cfg = _config(f"sqlite:///{src}", store_url)
    run_full(cfg, "persons")
    assert ["10", "301"] not in memberships(cfg, "persons")
    write(src, rows[-1:], FIELDS)
    assert run_incremental(cfg, "persons").rows_read == 1
    ref = _config(f"sqlite:///{src}", f"sqlite:///{tmp_path / 'ref.db'}")
    run_full(ref, "persons")
    assert memberships(cfg, "persons") == memberships(ref, "persons")
    assert ["10", "301", "302"] in memberships(ref, "persons")  # X gathered by Z in both


def _collective() -> list[dict]:
    """20 unrelated petitions, then A (ten segments of 30 random characters), X (A with two segments
    replaced: too far from A to pair) and Z (A with one of them replaced: pairs with both), each
    filed by someone else. Seed 1: Z's estimates with A and X both pass the bar."""
    rng = random.Random(1)
    chars = [chr(c) for c in range(0x4E00, 0x4E00 + 3000)]
    seg = ["".join(rng.choice(chars) for _ in range(30)) for _ in range(14)]
    rows = [petition(i, "".join(rng.choice(chars) for _ in range(300)), f"人{i}", f"1380000{i:04d}") for i in range(1, 21)]
    return rows + [petition(21, "".join(seg[:10]), "张三", "13900000001"),
                   petition(22, "".join(seg[:8] + seg[10:12]), "李四", "13900000002"),
                   petition(23, "".join(seg[:9] + seg[10:11]), "王五", "13900000003")]


def full_then_last_row(rows: list[dict], store: str, tmp_path, match: dict | None = None) -> tuple[list, list, list]:
    """(groups of a full run over all rows but the last, of that full run then an incremental run
    that reads the last row, of one full run over all rows); ``match``: config match keys."""
    src = f"sqlite:///{tmp_path / 'src.db'}"
    make_table(src, rows[:-1])
    cfg = config_for(src, store, watermark="updated_at", match=match)
    run_full(cfg)
    before = memberships(cfg)
    append(src, rows[-1:])
    assert run_incremental(cfg).rows_read == 1
    ref = config_for(src, f"sqlite:///{tmp_path / 'ref.db'}", watermark="updated_at", match=match)
    run_full(ref)
    return before, memberships(cfg), memberships(ref)


def runs_alike(rows: list[dict], store: str, tmp_path, before: list, after: list, match: dict | None = None) -> None:
    """A full run over all rows but the last makes ``before``; then an incremental run that reads
    the last, and one full run over all rows, both make ``after`` (``full_then_last_row``)."""
    assert full_then_last_row(rows, store, tmp_path, match) == (before, after, after)


def test_a_text_table_gathers_in_a_full_then_incremental_run_as_in_one_full_run(store_url, tmp_path):  # noqa: F811
    before, incremental, full = full_then_last_row(_collective(), store_url, tmp_path)
    assert before == []  # X and A apart
    assert incremental == full == [["21", "22", "23"]]  # X gathered by Z in both
