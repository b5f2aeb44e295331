"""Held-out (issue 22): English support tickets written largely from a pool of stock sentences.

    python -m bench.datasets.heldout22.tickets --rows 2000 --seed 100 --out DIR

Table ``tickets`` (id, email, name, subject, body, updated_at) and truth.csv. A ticket is a
greeting, one or two sentences about the customer's own problem (product, error code, order
number, device, dates; in 40 % one short sentence), three to six stock sentences drawn from a
shared pool (the first ones far more popular: "I have already tried restarting", "Please
advise") and a sign-off; the subject is mostly one of the help desk's stock subjects ("Login
problem"). So unrelated tickets share whole sentences. A
true duplicate is the same customer re-sending the same ticket with edits (about 70 % from the
same email; otherwise a second address or a typo in it): another greeting, stock sentences swapped
or dropped, a "sent this last week" line, a "Re:" / "Follow-up:" subject, letter typos. Hard
negatives: the same customer (same email) with a different problem; different customers with one
common name. Never used to choose dedup's defaults; report on seeds 100 and up.
"""

from __future__ import annotations

import random

from bench.datasets.heldout.common import Clock, HeldOut, finish, stamp
from bench.datasets.heldout22.cli import generator_main

KINDS = ("resent", "same_customer_new_problem", "single")
COLUMNS = ["email", "name", "subject", "body", "updated_at"]
FIELDS = {"email": "short", "name": "short", "subject": "text", "body": "text"}
RESENT_SHARE = 0.22
SAME_EMAIL = 0.75
NEW_PROBLEM_SHARE = 0.06
SHORT_SHARE = 0.4  # tickets whose own part is one short sentence

_FIRST = ("James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "David", "Sarah", "Daniel",
          "Laura", "Kevin", "Emma", "Chris", "Olivia", "Mark", "Sophie", "Paul", "Grace", "Ahmed", "Priya", "Wei",
          "Lucas", "Hannah", "Tom", "Nadia", "Omar", "Chloe", "Ben")
_LAST = ("Smith", "Johnson", "Brown", "Taylor", "Wilson", "Martin", "Lee", "Walker", "Hall", "Young", "King",
         "Wright", "Scott", "Green", "Baker", "Adams", "Nelson", "Hill", "Campbell", "Mitchell", "Roberts", "Carter",
         "Phillips", "Evans", "Turner", "Torres", "Parker", "Collins", "Edwards", "Stewart", "Morris", "Murphy",
         "Cook", "Rogers", "Patel", "Khan", "Nguyen", "Kowalski", "Schmidt", "Rossi")
_DOMAINS = ("gmail.com", "outlook.com", "yahoo.com", "icloud.com", "proton.me", "fastmail.com", "hotmail.co.uk")
_WORK = ("acme-corp.com", "northwind.io", "bluepeak.net", "harbourlogistics.com", "greenleaf.org", "stratos.dev")

_PRODUCTS = ("SyncBox", "PhotoVault", "CloudNotes", "InvoicePro", "TaskPilot", "StreamDeck Plus", "HomeHub",
             "FitTrack band", "SecureVPN", "MailMerge", "ChatDesk", "DataBridge", "PrintEasy", "SmartLock",
             "AudioPod", "BudgetWise", "ShopCart plugin", "TimeSheet app", "ScanDoc", "RouteMap")
_DEVICES = ("my iPhone 13", "a Pixel 7", "Windows 11", "my MacBook Air", "an iPad", "Ubuntu 22.04", "a Galaxy S22",
            "Chrome on Windows 10", "Firefox", "the Android app", "the desktop client", "Safari on macOS")
_PROBLEMS = (
    "{product} keeps crashing with error {code} as soon as I open it on {device}",
    "I was charged twice for order #{order} on {date} and only received one {product} licence",
    "since the update on {date}, {product} no longer syncs my files between {device} and the web",
    "I cannot log in to {product}: the verification code never arrives at my phone ending in {digits}",
    "my {product} subscription renewed on {date} even though I cancelled it in {month}",
    "the {product} export to PDF cuts off the last {n} pages of every report",
    "order #{order} was marked as delivered on {date} but nothing arrived at my address",
    "{product} shows the message '{code}: quota exceeded' although I only use {n} GB of my plan",
    "after resetting my password on {date} I lost access to {n} shared folders in {product}",
    "the {product} integration with my calendar creates {n} duplicate events for every meeting",
    "I requested a refund for order #{order} on {date} and have not heard back",
    "{product} on {device} drains the battery in about {n} hours since version {version}",
    "notifications from {product} stopped working on {device} after I changed my email address",
    "my account {digits} was locked after {n} failed login attempts that were not mine",
    "the invoice for order #{order} shows the wrong VAT number and I need a corrected copy by {date}",
    "{product} fails to import my CSV file with {n} rows and shows error {code}",
)
# Short problems: a ticket that is mostly stock sentences around one order number or error code.
_SHORT_PROBLEMS = ("My order #{order} has not arrived.", "I keep getting error {code}.", "I cannot log in since {date}.",
                   "I was charged twice on {date}.", "{product} stopped working.", "My account {digits} is locked.",
                   "Please cancel my {plan} subscription.", "The app crashes on {device}.")
_DETAILS = (
    "This started around {date}.", "I am on the {plan} plan.", "My customer number is {digits}.",
    "The error code is {code}.", "I am using version {version}.", "It happens about {n} times a day.",
    "This affects {n} people in my team.", "The order was placed with card ending {digits}.",
)
# The shared stock sentences: most tickets use several of these.
STOCK = (
    "I have already tried restarting the app and my device.", "I also tried uninstalling and reinstalling it.",
    "I have cleared the cache and cookies as suggested in your help centre.", "Please advise on how to fix this.",
    "This is quite urgent for me as I need it for work.", "I have attached a screenshot of the error.",
    "Could you please look into this as soon as possible?", "I would appreciate a quick response.",
    "I have been a loyal customer for several years.", "Your chatbot was not able to help me.",
    "I checked the status page and it says all systems are operational.", "Thank you in advance for your help.",
    "Let me know if you need any more information from me.", "I am very disappointed with the service so far.",
    "I followed all the steps in the troubleshooting guide.", "Nothing has changed on my side recently.",
    "My internet connection is working fine otherwise.", "I would like this resolved before the end of the week.",
    "Please do not close this ticket until the issue is fixed.", "I can be reached by email at any time.",
    "I have read the FAQ but it did not cover my case.", "If this is a known issue please let me know.",
    "I would like a refund if this cannot be fixed.", "A colleague of mine has the same problem.",
    "I have double-checked my account settings and everything looks correct.",
    "I am happy to jump on a call if that helps.", "I tried on a different device and got the same result.",
    "I have logged out and back in several times.", "The problem persists even after the latest update.",
    "I have not made any changes to my payment details.", "I hope you can sort this out quickly.",
    "It worked perfectly fine until recently.", "I need this working for an important deadline.",
    "Please escalate this to a technician if needed.", "Your previous answer did not solve the problem.",
    "I am attaching the log file from my device.",
)
_STOCK_WEIGHTS = [1 / (rank + 1) for rank in range(len(STOCK))]
_GREETINGS = ("Hello,", "Hi,", "Hi there,", "Dear Support,", "Hello support team,", "Good morning,", "Hey,", "")
_SIGNOFFS = ("Thanks,", "Best regards,", "Kind regards,", "Cheers,", "Many thanks,", "Regards,")
_RESENT = ("I sent this last week but got no reply.", "This is my second request about this.",
           "Following up on my previous message.", "Still waiting for an answer on this.")
# Subjects picked from the help desk's form most of the time (else the problem's first words).
_SUBJECTS = ("Login problem", "Billing question", "Refund request", "App keeps crashing", "Sync not working",
             "Account locked", "Order not received", "Subscription issue", "Technical issue", "Urgent: help needed",
             "Problem with my account", "Error message", "Cannot access my files", "Invoice question",
             "Password reset", "Support request", "Bug report", "Delivery problem")
_PLANS = ("Basic", "Plus", "Pro", "Family", "Business", "Enterprise")


def _fill(rng: random.Random, template: str, facts: dict) -> str:
    return template.format(**facts)


def _facts(rng: random.Random) -> dict:
    return {"product": rng.choice(_PRODUCTS), "device": rng.choice(_DEVICES), "plan": rng.choice(_PLANS),
            "code": f"{rng.choice('EAXK')}-{rng.randint(100, 9999)}", "order": rng.randint(100000, 999999),
            "date": f"{rng.choice(('March', 'April', 'May', 'June', 'July'))} {rng.randint(1, 30)}",
            "month": rng.choice(("January", "February", "March")), "n": rng.randint(2, 40),
            "digits": f"{rng.randint(0, 9999):04d}", "version": f"{rng.randint(1, 9)}.{rng.randint(0, 20)}"}


def _stock(rng: random.Random, count: int) -> list[str]:
    """``count`` different stock sentences, the first ones of the pool much more popular."""
    out: list[str] = []
    while len(out) < count:
        s = rng.choices(STOCK, _STOCK_WEIGHTS)[0]
        if s not in out:
            out.append(s)
    return out


def customer(rng: random.Random) -> dict:
    first, last = rng.choice(_FIRST), rng.choice(_LAST)
    local = rng.choice((f"{first}.{last}", f"{first[0]}{last}", f"{first}{rng.randint(1, 99)}", f"{last}.{first[0]}"))
    return {"name": f"{first} {last}", "email": f"{local.lower()}@{rng.choice(_DOMAINS)}",
            "alt": f"{first.lower()}.{last.lower()}@{rng.choice(_WORK)}"}


def ticket(rng: random.Random, who: dict) -> dict:
    """The parts of one ticket: subject, the customer's own sentences, stock sentences, greeting."""
    facts = _facts(rng)
    problem = _fill(rng, rng.choice(_PROBLEMS), facts)
    if rng.random() < SHORT_SHARE:
        own = [_fill(rng, rng.choice(_SHORT_PROBLEMS), facts)]
    else:
        own = [problem[0].upper() + problem[1:] + "."]
        own += [_fill(rng, d, facts) for d in rng.sample(_DETAILS, rng.randint(0, 1))]
    words = problem.split()
    subject = " ".join(words[:rng.randint(5, 9)]).rstrip(",.:")
    subject = rng.choice(_SUBJECTS) if rng.random() < 0.7 else subject[0].upper() + subject[1:]
    return {"subject": subject, "own": own, "stock": _stock(rng, rng.randint(3, 6)),
            "greeting": rng.choice(_GREETINGS), "signoff": rng.choice(_SIGNOFFS), "who": who}


def render(t: dict, extra: str = "") -> str:
    lines = [t["greeting"]] if t["greeting"] else []
    lines.append(" ".join(t["own"] + t["stock"] + ([extra] if extra else [])))
    lines.append(f"{t['signoff']}\n{t['who']['name'].split()[0]}")
    return "\n\n".join(lines)


def _letter_typo(rng: random.Random, text: str) -> str:
    """One letter swapped with its neighbour, dropped or doubled, inside a word of 4+ letters."""
    spots = [i for i in range(1, len(text) - 2) if text[i - 1:i + 3].isalpha()]
    if not spots:
        return text
    i = rng.choice(spots)
    how = rng.randrange(3)
    if how == 0:
        return text[:i] + text[i + 1] + text[i] + text[i + 2:]
    return text[:i] + text[i + 1:] if how == 1 else text[:i] + text[i] + text[i:]


def resend(rng: random.Random, t: dict) -> tuple[dict, str, str]:
    """The same ticket sent again: (parts, email, extra line)."""
    t = dict(t)
    edits = rng.sample(("greeting", "stock", "drop", "typo", "subject", "extra"), rng.randint(1, 3))
    if "greeting" in edits:
        t["greeting"], t["signoff"] = rng.choice(_GREETINGS), rng.choice(_SIGNOFFS)
    if "stock" in edits:
        t["stock"] = t["stock"][:-1] + [rng.choice(STOCK)]
    if "drop" in edits and len(t["stock"]) > 2:
        t["stock"] = t["stock"][1:]
    if "typo" in edits:
        t["own"] = [_letter_typo(rng, t["own"][0])] + t["own"][1:]
    if "subject" in edits:
        t["subject"] = rng.choice(("Re: ", "Follow-up: ", "URGENT: ", "Fwd: ")) + t["subject"]
    who = t["who"]
    email = who["email"] if rng.random() < SAME_EMAIL else (
        who["alt"] if rng.random() < 0.7 else _letter_typo(rng, who["email"]))
    return t, email, rng.choice(_RESENT) if "extra" in edits else ""


def generate_tickets(n_rows: int, seed: int) -> HeldOut:
    """``n_rows`` labelled tickets, deterministic given the arguments."""
    rng = random.Random(seed)
    clock = Clock(rng)
    made: list[tuple[dict, str, str]] = []
    customers: list[dict] = []
    while len(made) < n_rows:
        label = f"K{len(made)}"
        if customers and rng.random() < NEW_PROBLEM_SHARE:
            who, kind = rng.choice(customers), "same_customer_new_problem"
        else:
            who, kind = customer(rng), "single"
            customers.append(who)
        t = ticket(rng, who)
        when = clock.first()
        made_row = {"email": who["email"], "name": who["name"], "subject": t["subject"], "body": render(t),
                    "updated_at": stamp(when)}
        copies = rng.choice((1, 1, 1, 2)) if kind == "single" and rng.random() < RESENT_SHARE else 0
        made.append((made_row, "resent" if copies else kind, label))
        for _ in range(copies):
            when = clock.later(when)
            again, email, extra = resend(rng, t)
            made.append(({"email": email, "name": who["name"], "subject": again["subject"],
                          "body": render(again, extra), "updated_at": stamp(when)}, "resent", label))
    return finish(rng, "tickets", COLUMNS, made[:n_rows])


main = generator_main(__doc__, "tickets", generate_tickets, FIELDS, KINDS, "body")


if __name__ == "__main__":
    main()
