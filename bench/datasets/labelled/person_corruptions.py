"""Corruptions of the labelled person records: how a hand-entered copy of a person's record goes wrong."""

from __future__ import annotations

import random
from dataclasses import replace

from bench.datasets.labelled.person_records import (
    _BUILDING_WORDS, _DATE_FORMATS, _DISTRICTS, _format_date, _FULLWIDTH, _Person, _row, _SIMILAR, _World,
)


# corruption -> weight
_CORRUPTIONS = (
    ("name_typo", 3.0), ("name_swap", 1.0), ("missing", 3.0), ("date_swap", 1.0), ("date_format", 2.0),
    ("fullwidth", 1.5), ("id_swap", 1.0), ("id_typo", 1.5), ("phone_swap", 1.0), ("phone_typo", 1.5),
    ("address_variant", 3.0), ("phone_new", 1.5), ("moved", 0.5),
)
_MISSING_FIELDS = (("name", 1), ("gender", 3), ("birth_date", 3), ("id_number", 4), ("phone", 4), ("address", 3))


def _swap_adjacent(rng: random.Random, s: str, start: int = 0) -> str | None:
    spots = [i for i in range(start, len(s) - 1) if s[i] != s[i + 1] and s[i].isdigit() and s[i + 1].isdigit()]
    if not spots:
        return None
    i = rng.choice(spots)
    return s[:i] + s[i + 1] + s[i] + s[i + 2:]


def _digit_typo(rng: random.Random, s: str) -> str | None:
    spots = [i for i, c in enumerate(s) if c.isdigit()]
    if not spots:
        return None
    i = rng.choice(spots[1:] if len(spots) > 1 else spots)  # a phone's leading 1 is never mistyped
    new = rng.choice([d for d in "0123456789" if d != s[i]])
    return s[:i] + new + s[i + 1:]


def _corrupt(world: _World, orig: _Person, n_corruptions: int) -> tuple[dict, list[str]]:
    """A damaged copy of ``orig``'s record, and the corruptions applied (at least one changes it)."""
    rng = world.rng
    p = replace(orig, address=replace(orig.address))
    names = [c for c, _ in _CORRUPTIONS]
    weights = [w for _, w in _CORRUPTIONS]
    chosen: list[str] = []
    while len(chosen) < n_corruptions:
        c = rng.choices(names, weights)[0]
        if c not in chosen and (c != "missing" or "missing" not in chosen):
            chosen.append(c)
    # structural changes first, then the rendered text is damaged
    applied: list[str] = []
    late: list[str] = []
    shown_birth = p.birth      # the date field; the id number keeps the true birth date
    for c in chosen:
        if c == "name_typo":
            given_spots = [i for i, ch in enumerate(p.given) if ch in _SIMILAR]
            if given_spots and (rng.random() < 0.8 or p.surname not in _SIMILAR):
                i = rng.choice(given_spots)
                p.given = p.given[:i] + rng.choice(_SIMILAR[p.given[i]]) + p.given[i + 1:]
            elif p.surname in _SIMILAR:
                p.surname = rng.choice(_SIMILAR[p.surname])
            else:
                continue
        elif c == "name_swap":
            if len(p.given) != 2 or p.given[0] == p.given[1]:
                continue
            p.given = p.given[::-1]
        elif c == "date_swap":
            y, m, d = p.birth
            if d > 12 or d == m:
                continue
            shown_birth = (y, d, m)
        elif c == "date_format":
            p.date_fmt = rng.choice([f for f in _DATE_FORMATS if f != p.date_fmt])
        elif c == "address_variant":
            a = p.address
            options = ["compact", "bword", "no_street"]
            options += ["city", "district"] if a.prefix == "full" else ["district"] if a.prefix == "city" else []
            if not a.compact:
                options.append("no_room_suffix")
            for opt in rng.sample(options, 2 if rng.random() < 0.3 else 1):
                if opt == "compact":
                    a.compact = True
                elif opt == "bword":
                    usual = _DISTRICTS[a.district][4]
                    a.bword = rng.choice([w for w in _BUILDING_WORDS if w != (a.bword or usual)])
                elif opt == "no_street":
                    a.with_street = False
                elif opt == "no_room_suffix":
                    a.room_suffix = False
                else:
                    a.prefix = opt
        elif c == "phone_new":
            p.phone = world.phone()
        elif c == "moved":
            p.address = world.address()
        else:
            late.append(c)
            continue
        applied.append(c)
    row = _row(p)
    row["birth_date"] = _format_date(shown_birth, p.date_fmt)
    for c in sorted(late, key=lambda c: c == "missing"):   # a field is emptied last
        if c == "missing":
            fld = rng.choices([f for f, _ in _MISSING_FIELDS], [w for _, w in _MISSING_FIELDS])[0]
            row[fld] = None
        elif c == "fullwidth":
            fld = rng.choice(["birth_date", "id_number", "phone"])
            row[fld] = row[fld].translate(_FULLWIDTH)
        elif c in ("id_swap", "phone_swap"):
            fld = "id_number" if c == "id_swap" else "phone"
            new = _swap_adjacent(rng, row[fld], 0 if fld == "id_number" else 1)
            if new is None:
                continue
            row[fld] = new
        elif c in ("id_typo", "phone_typo"):
            fld = "id_number" if c == "id_typo" else "phone"
            row[fld] = _digit_typo(rng, row[fld])
        applied.append(c)
    return row, applied

