"""TUNING set for issue 22 (session 42): the tuning tickets (tickets.py) with namesakes. Each customer's
name takes a middle initial (20 x 26 x 20 names), so most names are rare (rule content_rare_identity
applies) and, by chance, two customers share one; a namesake writes their own ticket on the same
stock sentences, and 8 % of tickets are a namesake's (an earlier customer's name, another email) on
an earlier ticket's subject and product, in sentences and numbers of their own (another incident).
(A first version copied the earlier ticket's words with every number replaced: the sweep's first
log, results/topic2-s42.md.)
A refile keeps the name, its email changed a quarter of the time (as in tickets.py),
so the name alone is often the only identity a true refile shares.

    python -m bench.datasets.tuning22.tickets_namesakes --rows 5000 --seed 0 --out /tmp/t22/namesakes-5k

Vocabulary is tickets.py's; never the held-out sets'.
"""

from __future__ import annotations

import random
import string
from datetime import datetime

from bench.datasets.labelled.common import Labelled
from .output import cli, numbered
from .tickets import FIRST, LAST, PRODUCTS, _ticket, resends

KINDS = ("original", "resent", "namesake")
NAMESAKE = 0.08


def _same_product(body: str, subject: str, earlier_subject: str) -> str:
    """A fresh ticket's body about the earlier ticket's product (read from the subjects' first words)."""
    mine, theirs = (next(p for p in PRODUCTS if x.lower().startswith(p)) for x in (subject, earlier_subject))
    return body.replace(mine, theirs)


def generate(n_rows: int, seed: int = 0) -> Labelled:
    rng = random.Random(seed)
    docs: list[tuple[dict, str, str]] = []
    c = 0
    while len(docs) < n_rows:
        c += 1
        first, middle, last = rng.choice(FIRST), rng.choice(string.ascii_uppercase), rng.choice(LAST)
        name = f"{first.capitalize()} {middle}. {last.capitalize()}"
        subject, body = _ticket(rng)
        kind = "original"
        if docs and rng.random() < NAMESAKE:  # another person of an earlier name, the same words, own numbers
            earlier = rng.choice(docs)[0]
            body = _same_product(body, subject, earlier["subject"].removeprefix("Re: "))
            name, subject, kind = earlier["name"], earlier["subject"], "namesake"
            first, last = name.split()[0].lower(), name.split()[-1].lower()
        email = f"{first}.{last}{rng.randint(1, 999)}@example.com"
        docs.append(({"name": name, "email": email, "subject": subject, "body": body}, kind, f"k{c}"))
        docs += resends(rng, name, email, subject, body, f"k{c}")
    docs = docs[:n_rows]
    rng.shuffle(docs)
    return numbered(docs, rng, datetime(2025, 1, 1))


def main() -> None:
    cli(__doc__, generate, 5000, "tickets", ("name", "email"), ("subject", "body"))


if __name__ == "__main__":
    main()
