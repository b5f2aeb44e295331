"""TUNING set for issue 22: English support tickets built from a pool of shared sentences.

    python -m bench.datasets.tuning22.tickets --rows 2000 --seed 0 --out /tmp/t22/tickets-2k

A ticket is two or three stock sentences (greetings, "I have been a customer for years"...) around
two to four sentences of its own (product, order number, error code, date). Duplicates: the
customer writing again (usually from the same email; a reworded greeting, a typo, a line added).
"""

from __future__ import annotations

import random
from datetime import datetime

from bench.datasets.labelled.common import Labelled
from .output import cli, numbered

KINDS = ("original", "resent")
STOCK = (
    "Hello support team,", "Hi there,", "Good morning,", "I hope you can help me with this.",
    "I have been a loyal customer for many years.", "This is really frustrating.",
    "Please look into this as soon as possible.", "Thank you in advance for your help.",
    "I already tried restarting everything twice.", "Looking forward to your reply.",
    "Best regards,", "Kind regards,", "I would appreciate a quick response.", "Can someone please call me back?",
    "I have attached a screenshot of the problem.", "This has happened before and nobody fixed it.",
)
PRODUCTS = ("router", "smart thermostat", "wireless headphones", "laptop dock", "coffee machine", "e-reader",
            "security camera", "fitness tracker", "robot vacuum", "printer", "phone case", "monitor", "keyboard")
ISSUES = ("stopped charging", "will not turn on", "keeps disconnecting from wifi", "arrived with a cracked screen",
          "shows error code {code}", "makes a loud buzzing noise", "was charged twice on my card",
          "never arrived although tracking says delivered", "is missing the power adapter", "overheats after an hour",
          "lost all settings after the update", "was sent in the wrong colour")
OWN = (
    "My order number is {order} and I bought the {product} on {date}.",
    "The {product} {issue}.",
    "Since {date} the {product} {issue}, and the manual does not mention it.",
    "I paid {price} dollars for it and expect a refund or a replacement.",
    "I contacted you on {date} under case {case} but got no answer.",
    "The serial number on the box is {serial}.",
    "I would like to return the {product} and get my {price} dollars back.",
)
FIRST = ("james", "mary", "robert", "patricia", "john", "jennifer", "michael", "linda", "david", "elizabeth",
         "william", "susan", "richard", "jessica", "joseph", "sarah", "thomas", "karen", "chris", "nancy")
LAST = ("smith", "johnson", "williams", "brown", "jones", "garcia", "miller", "davis", "wilson", "moore", "taylor",
        "anderson", "thomas", "jackson", "white", "harris", "martin", "thompson", "lee", "walker")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October")


def _ticket(rng: random.Random) -> tuple[str, str]:
    fx = {"order": rng.randint(100000, 999999), "product": rng.choice(PRODUCTS), "date": f"{rng.choice(MONTHS)} {rng.randint(1, 28)}",
          "price": rng.randint(20, 900), "case": f"CS-{rng.randint(1000, 99999)}", "serial": f"SN{rng.randint(10 ** 7, 10 ** 8)}",
          "code": f"E{rng.randint(10, 99)}"}
    fx["issue"] = rng.choice(ISSUES).format(**fx)
    own = [OWN[i].format(**fx) for i in sorted(rng.sample(range(len(OWN)), rng.randint(2, 4)))]
    stock = rng.sample(STOCK, rng.randint(2, 3))
    body = " ".join([stock[0], *own, *stock[1:]])
    return f"{fx['product'].capitalize()} {fx['issue']}", body


def _resend(rng: random.Random, body: str) -> str:
    kind = rng.choice(("greet", "typo", "more", "drop"))
    words = body.split(" ")
    if kind == "greet":
        return rng.choice(("Hello again,", "Hi,", "Dear support,")) + " " + " ".join(words[2:])
    if kind == "typo" and len(words) > 4:
        i = rng.randrange(len(words))
        w = words[i]
        words[i] = w[:len(w) // 2] + w[len(w) // 2 + 1:] if len(w) > 3 else w
        return " ".join(words)
    if kind == "more":
        return body + " " + rng.choice(("This is my second message about this.", "Still waiting for an answer.",
                                        "Please escalate this ticket."))
    return " ".join(words[:-2])


def resends(rng: random.Random, name: str, email: str, subject: str, body: str, label: str) -> list[tuple[dict, str, str]]:
    """A quarter of customers write again once or twice, usually from the same email."""
    out = []
    for _ in range(rng.randint(1, 2) if rng.random() < 0.25 else 0):
        again = email if rng.random() < 0.72 else f"{name.split()[0].lower()}{rng.randint(1, 99)}@mail.example.org"
        body = _resend(rng, body)
        out.append(({"name": name, "email": again, "subject": subject if rng.random() < 0.7 else f"Re: {subject}",
                     "body": body}, "resent", label))
    return out


def generate(n_rows: int, seed: int = 0) -> Labelled:
    rng = random.Random(seed)
    docs: list[tuple[dict, str, str]] = []
    c = 0
    while len(docs) < n_rows:
        c += 1
        name = f"{rng.choice(FIRST).capitalize()} {rng.choice(LAST).capitalize()}"
        email = f"{name.split()[0].lower()}.{name.split()[1].lower()}{rng.randint(1, 999)}@example.com"
        subject, body = _ticket(rng)
        docs.append(({"name": name, "email": email, "subject": subject, "body": body}, "original", f"k{c}"))
        docs += resends(rng, name, email, subject, body, f"k{c}")
    docs = docs[:n_rows]
    rng.shuffle(docs)
    return numbered(docs, rng, datetime(2025, 1, 1))


def main() -> None:
    cli(__doc__, generate, 2000, "tickets", ("name", "email"), ("subject", "body"))


if __name__ == "__main__":
    main()
