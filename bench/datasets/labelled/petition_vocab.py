"""The labelled petitions' vocabulary: bench/datasets/labelled/data/petitions-*.json on top of dedup.demo's word lists.

Data files so the words and sentence templates read as text; this module only names them and
derives what the generator looks things up by (topic weights, matter tags, wording groups).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace

from dedup.demo.vocabulary import data_file, words

_WORDS = data_file("bench.datasets.labelled", "petitions-words")
_SENTENCES = data_file("bench.datasets.labelled", "petitions-sentences")
_TOPIC_DATA = data_file("bench.datasets.labelled", "petitions-topics")

# ---------------------------------------------------------------------------------------------
# Places, organisations, people (dedup.demo's lists, extended)

_SURNAMES = words("surnames")
_COMPOUND_SURNAMES = words("compound_surnames")
_GIVEN = words("given")
_DISTRICTS = words("districts")
_STREETS = words("streets")
_RIVERS = words("rivers")
_SHOP_KINDS = words("shop_kinds")
_SCHOOL_KINDS = words("school_kinds")
_COMMUNITIES_ALL = words("communities") + _WORDS["more_communities"]
_ROADS_ALL = words("roads") + _WORDS["more_roads"]
_BRANDS_ALL = words("brands") + _WORDS["more_brands"]
_TOWNS = _WORDS["towns"]
_VILLAGES = _WORDS["villages"]
_HOMETOWNS = _WORDS["hometowns"]
_RESTAURANT_KINDS = _WORDS["restaurant_kinds"]
_BANKS = _WORDS["banks"]
_RELATIVES = _WORDS["relatives"]
_OFFICIAL_TITLES = _WORDS["official_titles"]
_BOSS_TITLES = _WORDS["boss_titles"]


# ---------------------------------------------------------------------------------------------
# Topics: titles, background, facts (str or tuple of paraphrases), contacts, demands, short ones


@dataclass(frozen=True)
class _Topic:
    key: str
    subject: str
    weight: int
    rural: float  # share of its petitioners who are villagers
    collective: bool  # whether collective complaints are filed on it
    suffixes: tuple
    titles: tuple
    background: tuple
    facts: tuple
    contacts: tuple
    demands: tuple
    shorts: tuple
    short_titles: tuple
    tags: dict | None = None  # per list, one matter letter per item ("*": any matter), see _MATTERS


# Sub-matters: one petition is about one matter of its topic (a vendor whose tricycle was seized and
# a resident annoyed by night-market stalls are both 城管, but never in one letter). Per topic and
# list, one letter per item of the topic's own list: the matter it belongs to, or "*" for sentences
# any matter may use. "more_<list>" adds (matter, sentence) pairs to the topic's lists. "collective":
# the matters neighbours or workmates file together (default: all).
_MATTERS = _TOPIC_DATA["matters"]
_TAGGED = ("titles", "background", "facts", "contacts", "demands")


def _with_matters(t: _Topic) -> _Topic:
    m = _MATTERS.get(t.key, {})
    lists, tags = {}, {}
    for name in _TAGGED:
        base = getattr(t, name)
        tag = m.get(name, "*" * len(base))
        assert len(tag) == len(base), (t.key, name, len(tag), len(base))
        more = m.get("more_" + name, ())
        lists[name] = base + tuple(text for _, text in more)
        tags[name] = tag + "".join(letter for letter, _ in more)
    return replace(t, tags=tags, **lists)


_TOPICS = tuple(_with_matters(_Topic(**t)) for t in _TOPIC_DATA["topics"])
_TOPIC_CUMULATIVE = tuple(itertools.accumulate(t.weight for t in _TOPICS))

# ---------------------------------------------------------------------------------------------
# Sentences shared by all topics

_OPENINGS = _SENTENCES["openings"]
_ACTIONS = _SENTENCES["actions"]
_IMPACTS = _SENTENCES["impacts"]
_NARRATIVE = _SENTENCES["narrative"]  # how things went on, for the longer letters
_WINDUP = _SENTENCES["windup"]  # said just before the demands
_DEMANDS = _SENTENCES["demands"]
_CLOSINGS = _SENTENCES["closings"]
_DEMAND_FIRST = _SENTENCES["demand_first"]
_CONNECTORS = _SENTENCES["connectors"]

# Collective complaints: one text many people file, with personal slots and personal extras.
_COLLECTIVE_OPENINGS = _SENTENCES["collective_openings"]
_COLLECTIVE_EXTRAS = _SENTENCES["collective_extras"]

# Refiled copies
_FOLLOW_UPS = _SENTENCES["follow_ups"]
_REFILE_LEADS = _SENTENCES["refile_leads"]
_GREETINGS = _SENTENCES["greetings"]
_SIGNOFFS = _SENTENCES["signoffs"]
_TITLE_PREFIXES = _SENTENCES["title_prefixes"]
_TITLE_SUFFIXES = _SENTENCES["title_suffixes"]

# Short complaints: optional second sentence, and the edits of their refiled copies
_SHORT_TAILS = _SENTENCES["short_tails"]
_SHORT_GREETINGS = _SENTENCES["short_greetings"]
_SHORT_SIGNOFFS = _SENTENCES["short_signoffs"]

# Web-form and hotline wrappers: the same long opening and closing around unrelated complaints.
# (name, opening, closing, third_person)
_BOILERPLATES = _SENTENCES["boilerplates"]

# Pinyin-input homophones (and a few look-alikes): correct -> typed instead.
_HOMOPHONES = _SENTENCES["homophones"]

# Width maps: the edits of refiled copies, and the habits of authors who type half-width or full-width
_FULL_PUNCT_TO_HALF = {"，": ",", "。": ".", "；": ";", "：": ":", "！": "!", "？": "?", "（": "(", "）": ")", "、": ","}
_PUNCT_TO_HALF = str.maketrans(_FULL_PUNCT_TO_HALF)
_COMMA_TO_HALF = str.maketrans({"，": ",", "、": ","})
_EXCLAIM_TO_HALF = str.maketrans({"！": "!", "？": "?", "：": ":"})
_DIGITS_TO_FULL = str.maketrans({chr(c): chr(c + 0xFEE0) for c in range(ord("0"), ord("9") + 1)})
_DIGIT_RUN = re.compile(r"[0-9]+")

# Interchangeable wordings: every occurrence in a petition's templates may be written another way,
# so two people describing the same kind of problem do not write the same sentence. (Only forms of
# two or more characters are looked for; single characters are only written.)
_LEXICON = _SENTENCES["lexicon"]
_LEX_GROUP = {form: group for group in _LEXICON for form in group if len(form) >= 2}
_LEX_RE = re.compile("|".join(sorted(_LEX_GROUP, key=len, reverse=True)))
