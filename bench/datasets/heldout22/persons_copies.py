"""Held-out (issue 22): person records with up to five heavily corrupted copies each.

    python -m bench.datasets.heldout22.persons_copies --rows 5000 --seed 100 --out DIR

Table ``people`` with ten text columns (given_name, surname, street_number, address_1, address_2,
suburb, postcode, state, date_of_birth, soc_sec_id) and updated_at, and truth.csv. Latin-script
names and addresses of the register-extract kind. About 40 % of the people have 1 to 5 further
copies; each copy is made from the original independently with 2 to 5 corruptions: keyboard and
OCR typos, a letter dropped, doubled or swapped, a phonetic spelling (ph/f, ck/k, ie/y), a
nickname, a value missing, street words abbreviated, a day/month swap or another date format, a
digit changed or two swapped in postcode or id. Hard negatives: family members (same surname,
address and often postcode, own given name, birth date and id) and namesakes.
Never used to choose dedup's defaults; report on seeds 100 and up.
"""

from __future__ import annotations

import random

from bench.datasets.heldout.common import Clock, HeldOut, finish, stamp, transpose_digits
from bench.datasets.heldout22.cli import generator_main

KINDS = ("copied", "family", "namesake", "single")
COLUMNS = ["given_name", "surname", "street_number", "address_1", "address_2", "suburb", "postcode", "state",
           "date_of_birth", "soc_sec_id", "updated_at"]
TEXT = COLUMNS[:-1]
FIELDS = {c: "chars" for c in TEXT}
COPIED_SHARE = 0.4
FAMILY_SHARE = 0.08
NAMESAKE_SHARE = 0.04

_GIVEN = ("oliver", "charlotte", "jack", "amelia", "noah", "isla", "william", "mia", "thomas", "grace", "lachlan",
          "chloe", "ethan", "ruby", "liam", "zoe", "harrison", "matilda", "cooper", "evie", "riley", "sienna",
          "hamish", "phoebe", "angus", "lily", "archie", "ella", "flynn", "harper", "declan", "imogen", "xavier",
          "jasmine", "connor", "madison", "bailey", "tahlia", "brodie", "stephanie", "phillip", "catherine",
          "christopher", "rebecca", "nicholas", "jessica", "matthew", "kimberley", "joshua", "samantha")
_NICK = {"william": "bill", "thomas": "tom", "christopher": "chris", "nicholas": "nick", "matthew": "matt",
         "joshua": "josh", "rebecca": "becky", "jessica": "jess", "samantha": "sam", "catherine": "kate",
         "stephanie": "steph", "phillip": "phil", "kimberley": "kim", "oliver": "ollie", "charlotte": "lottie"}
_SURNAMES = ("nguyen", "smith", "jones", "williams", "brown", "wilson", "taylor", "johnson", "white", "martin",
             "anderson", "thompson", "tran", "thomas", "walker", "harris", "lee", "ryan", "robinson", "kelly",
             "king", "davis", "wright", "evans", "roberts", "green", "hall", "wood", "jackson", "clarke", "patel",
             "khan", "macdonald", "fitzgerald", "oconnor", "papadopoulos", "kowalczyk", "schneider", "rossi",
             "morrison", "campbell", "stewart", "mitchell", "young", "hughes", "edwards", "phelps", "blackwood")
_STREETS = ("wattle", "banksia", "jacaranda", "kurrajong", "melaleuca", "grevillea", "bottlebrush", "ironbark",
            "river", "beach", "station", "church", "railway", "victoria", "albert", "george", "hill", "park",
            "kingfisher", "lyrebird", "kookaburra", "rosella", "currawong", "magpie", "pelican")
_STREET_TYPES = (("street", "st"), ("road", "rd"), ("avenue", "ave"), ("crescent", "cres"), ("place", "pl"),
                 ("drive", "dr"), ("court", "ct"), ("parade", "pde"), ("close", "cl"), ("terrace", "tce"))
_UNITS = ("unit {}", "flat {}", "apartment {}", "level {}", "suite {}")
_BUILDINGS = ("{} gardens", "{} villas", "{} retirement village", "{} house", "{} towers")
# (state, first postcode digit, suburbs)
_REGIONS = (
    ("nsw", "2", ("parramatta", "hornsby", "bankstown", "penrith", "wollongong", "gosford", "newtown", "dubbo")),
    ("vic", "3", ("footscray", "geelong", "ballarat", "frankston", "brunswick", "bendigo", "dandenong")),
    ("qld", "4", ("toowong", "ipswich", "caboolture", "southport", "cairns", "mackay", "redcliffe")),
    ("sa", "5", ("glenelg", "elizabeth", "prospect", "unley", "salisbury", "mount barker")),
    ("wa", "6", ("fremantle", "joondalup", "midland", "rockingham", "subiaco", "bunbury")),
    ("tas", "7", ("sandy bay", "launceston", "devonport", "kingston")),
    ("act", "2", ("belconnen", "tuggeranong", "woden", "gungahlin")),
)
_KEYBOARD = {c: n for c, n in zip("qwertyuiopasdfghjklzxcvbnm",
                                  ("wa", "qes", "wrd", "etf", "ryg", "tuh", "yij", "uok", "ipl", "o", "qsz", "adwx",
                                   "sfec", "dgrv", "fhtb", "gjyn", "hkum", "jli", "ko", "xa", "zcs", "xvd", "cbf",
                                   "vng", "bmh", "nj"))}
_OCR = {"o": "0", "l": "1", "i": "1", "s": "5", "b": "8", "g": "9", "e": "c", "m": "rn", "0": "o", "1": "l", "5": "s"}
_PHONETIC = (("ph", "f"), ("ck", "k"), ("ie", "y"), ("ey", "y"), ("ll", "l"), ("th", "t"), ("ou", "o"), ("ss", "s"))


def _postcode(rng: random.Random, first: str) -> str:
    return first + f"{rng.randint(0, 999):03d}"


def person(rng: random.Random, surname: str | None = None, home: dict | None = None) -> dict:
    """A person with an address (``home``'s when given) and their own name, birth date and id."""
    if home is None:
        state, first, suburbs = rng.choice(_REGIONS)
        name = rng.choice(_STREETS)
        home = {"street_number": str(rng.randint(1, 400)),
                "address_1": f"{name} {rng.choice(_STREET_TYPES)[0]}",
                "address_2": (rng.choice(_UNITS).format(rng.randint(1, 60)) if rng.random() < 0.3 else
                              rng.choice(_BUILDINGS).format(rng.choice(_STREETS)) if rng.random() < 0.2 else None),
                "suburb": rng.choice(suburbs), "postcode": _postcode(rng, first), "state": state}
    return {"given_name": rng.choice(_GIVEN), "surname": surname or rng.choice(_SURNAMES), **home,
            "date_of_birth": f"{rng.randint(1930, 2008)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}",
            "soc_sec_id": str(rng.randint(1000000, 9999999))}


def _typo(rng: random.Random, value: str) -> str:
    if len(value) < 2:
        return value
    i = rng.randrange(len(value))
    c = value[i]
    how = rng.randrange(6)
    if how == 0 and c in _KEYBOARD:
        return value[:i] + rng.choice(_KEYBOARD[c]) + value[i + 1:]
    if how == 1 and c in _OCR:
        return value[:i] + _OCR[c] + value[i + 1:]
    if how == 2:
        return value[:i] + value[i + 1:]
    if how == 3:
        return value[:i] + c + value[i:]
    if how == 4 and i < len(value) - 1:
        return value[:i] + value[i + 1] + c + value[i + 2:]
    return value[:i] + rng.choice("aeioumnrst") + value[i + 1:]


def _date_variant(rng: random.Random, value: str) -> str:
    if len(value) != 8 or not value.isdigit():  # already changed once
        return _typo(rng, value)
    y, m, d = value[:4], value[4:6], value[6:]
    how = rng.randrange(4)
    if how == 0 and int(d) <= 12:
        return y + d + m  # day and month swapped
    if how == 1:
        return f"{d}/{m}/{y}"
    if how == 2:
        return y + m + str((int(d) % 28) + 1).zfill(2)
    return value[:3] + str((int(value[3]) + 1) % 10) + value[4:]  # the year's last digit


def corrupt(rng: random.Random, original: dict) -> dict:
    """A copy of ``original`` with 2 to 5 corruptions spread over its columns."""
    row = dict(original)
    for _ in range(rng.randint(2, 5)):
        column = rng.choice(TEXT)
        value = row[column]
        how = rng.random()
        if value is None:
            continue
        if how < 0.2:
            row[column] = None
        elif column == "given_name" and value in _NICK and how < 0.35:
            row[column] = _NICK[value]
        elif column in ("given_name", "surname") and how < 0.45:
            for a, b in _PHONETIC:
                if a in value:
                    row[column] = value.replace(a, b, 1)
                    break
            else:
                row[column] = _typo(rng, value)
        elif column == "address_1" and how < 0.5:
            for full, short in _STREET_TYPES:
                if value.endswith(" " + full):
                    row[column] = value[: -len(full)] + short
        elif column == "date_of_birth" and how < 0.7:
            row[column] = _date_variant(rng, value)
        elif column in ("postcode", "soc_sec_id", "street_number") and how < 0.6:
            row[column] = transpose_digits(rng, value)
        elif column in ("given_name", "surname") and how < 0.55 and row["surname"] and row["given_name"]:
            row["given_name"], row["surname"] = row["surname"], row["given_name"]
        else:
            row[column] = _typo(rng, value)
    while row == original:  # every corruption fell on an empty value or changed nothing
        column = rng.choice([c for c in TEXT if row[c]])
        row[column] = _typo(rng, row[column])
    return row


def generate_people(n_rows: int, seed: int) -> HeldOut:
    """``n_rows`` labelled person records, deterministic given the arguments."""
    rng = random.Random(seed)
    clock = Clock(rng)
    made: list[tuple[dict, str, str]] = []
    earlier: list[dict] = []
    while len(made) < n_rows:
        label = f"P{len(made)}"
        draw = rng.random()
        if earlier and draw < FAMILY_SHARE:
            head = rng.choice(earlier)
            home = {c: head[c] for c in ("street_number", "address_1", "address_2", "suburb", "postcode", "state")}
            p, kind = person(rng, head["surname"], home), "family"
        elif earlier and draw < FAMILY_SHARE + NAMESAKE_SHARE:
            twin = rng.choice(earlier)
            p, kind = dict(person(rng), given_name=twin["given_name"], surname=twin["surname"]), "namesake"
        else:
            p, kind = person(rng), "single"
        earlier.append(p)
        copies = rng.choice((1, 1, 2, 2, 3, 4, 5)) if kind == "single" and rng.random() < COPIED_SHARE else 0
        when = clock.first()
        made.append((dict(p, updated_at=stamp(when)), "copied" if copies else kind, label))
        for _ in range(copies):
            when = clock.later(when)
            made.append((dict(corrupt(rng, p), updated_at=stamp(when)), "copied", label))
        if len(earlier) > 4000:
            del earlier[:2000]
    return finish(rng, "people", COLUMNS, made[:n_rows])


main = generator_main(__doc__, "people", generate_people, FIELDS, KINDS, None)


if __name__ == "__main__":
    main()
