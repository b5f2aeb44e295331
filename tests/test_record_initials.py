"""The initial vs the sibling (issue 22, s43): a record signature keeps each value's length and
first character beside its hash (dedup.text.records, version 2), so the evidence against
(dedup.index.record_fields) can excuse a given name cut to its initial (``v`` vs ``vosdroull``:
bigram MinHash scores it about 0, as it does a sibling's name) while a sibling's name stays
evidence against. Text tables do not hold record signatures: their stamp does not move."""

from __future__ import annotations

import numpy as np

from dedup.config.parse import parse_config
from dedup.index.record_fields import against, excused, floors, initials, shape
from dedup.methods.records import Records
from dedup.index.records import RecordScheme
from dedup.runs.recipe import Recipe
from dedup.text.numbers import NUMBERS_VERSION
from dedup.text.records import SIGNATURE_VERSION, RecordSignature, value_word
from test_record_against import FIELDS, ON, PERSON, SIBLING, SPECS, generate, scores

HIM = dict(PERSON, given_name="vondrist")  # `v` vs `vondrist`: 8 MinHash values estimate 0.22, as for a sibling
INITIAL_NO_DOB = dict(HIM, given_name="v", date_of_birth=None)  # the initial, the birth date lost: no personal field equal


def test_the_value_word_keeps_length_and_first_character_and_equality():
    words = np.array([value_word(t) for t in ("v", "vosdroull", "broundbai", "", "张三", "vosdroull")], np.uint64)
    lengths, firsts = shape(words)
    assert lengths.tolist() == [1, 9, 9, 0, 2, 9] and firsts.tolist() == [118, 118, 98, 0, 0x5F20, 118]
    assert words[1] == words[5] and len(set(words[:3].tolist())) == 3 and words[3] == 0
    assert all(value_word("x" * n) != 0 for n in (1, 63, 64, 500))  # a long value caps its length, never 0


def test_an_initial_is_excused_and_a_siblings_name_is_not():
    ha = np.array([[value_word("vosdroull")]] * 3, np.uint64)
    hb = np.array([[value_word(t)] for t in ("v", "broundbai", "vosdroull")], np.uint64)
    assert initials(ha, hb, 1)[:, 0].tolist() == [True, False, False]  # equal is not an initial
    assert not initials(ha, hb, 0).any()
    scored, used, weights = np.zeros((3, 1)), np.ones((3, 1)), np.array([5.0])
    got = against(scored, used, weights, 0.3, 2.0, 1, 1, 1, excused=initials(ha, hb, 1))
    assert got[:2, 0].tolist() == [1.0, 2.0]  # the initial weighs once; the sibling's name twice
    assert floors(ha, hb, 1, False, 1, 0.5)[:, 0].tolist() == [0.5, 0.0, 0.0]


def test_with_initials_excused_a_copy_cut_to_its_initial_keeps_its_score_and_the_sibling_still_falls():
    rule, excused = scores(**ON), scores(**ON, initial=1)
    assert (excused[:2] < RecordScheme.threshold).all()  # the sibling, with and without a birth date
    assert np.array_equal(excused, rule)  # s42's four: the initial's birth date is equal, the rule spared it already
    main, s42, s43 = _him_against(), _him_against(**ON), _him_against(**ON, initial=1)
    assert main[0] >= RecordScheme.threshold  # main keeps the copy cut to its initial ...
    assert s42[0] < RecordScheme.threshold  # ... s42's rule lost it (the recall it paid) ...
    assert s43[0] == main[0]  # ... excused, it scores as on main
    assert s43[1] == s42[1] < RecordScheme.threshold < main[1]  # his sibling still falls


def _him_against(sibling: str = "voomchick", **kw) -> list[float]:
    """``HIM`` against his copy cut to its initial with the birth date lost, and against his sibling."""
    rows = generate(2000, 31)[0]
    sig = RecordSignature(SPECS).of_rows(rows + [HIM, INITIAL_NO_DOB, dict(SIBLING, given_name=sibling)])
    scheme = RecordScheme(len(FIELDS), field_weights=tuple(f.weight for f in SPECS), **kw)
    scheme = scheme.with_learned(scheme.learn(sig[:2000]))
    return scheme.scores(sig[[2000, 2000]], sig[[2001, 2002]]).tolist()


def _stamp(fields: dict) -> dict:
    return Recipe.of(parse_config({"source": {"url": "sqlite://"}, "tables": {"t": {"key": "id", "fields": fields}}})).stamp


def test_the_stamp_moves_for_record_tables_only():
    records = _stamp({"name": "short", "birth": "short", "id_number": "short"})
    assert records["signature"]["version"] == SIGNATURE_VERSION == 2  # main's record stores: version 1, one `dedup full`
    text = _stamp({"name": "short", "content": "text"})
    # main f22df82's text stamp (the parts that do not name package versions), unchanged by this rule
    # (numbers_version moved on its own: 4 since session 43's place names beginning with 和)
    assert text["signature"] == {"content": ["content"], "digits": "keep", "features": 2, "identity": ["name"],
                                 "number_copies": 2, "numbers": 16, "numbers_version": NUMBERS_VERSION, "perms": 64, "seed": 1,
                                 "shingle_chars": 3, "shingles": 1}
    assert text["keys"] == {"anchors": 16, "bands": 15, "identity_keys": [[0]], "identity_keys_for": "all", "r": 2,
                            "short_chars": 60}  # r 2 since session 47 (bands of 2 values, topic5-s47.md): one `dedup full`
    assert "version" not in text["signature"] and "normalization" in text


def test_near_names_are_excused_straight_and_crosswise_but_not_dates_or_other_letters():
    words = lambda *ts: np.array([[value_word(t) for t in ts]], np.uint64)  # noqa: E731
    a = words("rail", "kenchocknie", "19310907")
    got = excused(np.repeat(a, 4, axis=0), np.concatenate([
        words("raik", "kenchockne", "19310908"),  # typos past the first letter: excused; a date never
        words("broundbai", "kenchocknie", "19890524"),  # a sibling: the name not excused (the equal surname: moot)
        words("kenchockni", "rail", "19310907"),  # swapped, one with a typo: both excused
        words("kenchocknie", "", "")]), 1, 1)  # swapped, the surname lost: both excused
    assert got.tolist() == [[True, True, False], [False, True, False], [True, True, False], [True, True, False]]
    assert excused(a, a, 0, -1) is None


def test_a_field_near_equal_may_count_as_agreeing():
    scored, used, weights = np.array([[0.0, 1.0, 0.86]]), np.ones((1, 3)), np.array([3.0, 2.0, 1.0])
    assert against(scored, used, weights, 0.3, 2.0, 3, 1, 1)[0].tolist() == [2.0, 1.0, 1.0]
    assert against(scored, used, weights, 0.3, 2.0, 3, 1, 1, agree_at=0.8)[0].tolist() == [1.0, 1.0, 1.0]


def test_the_shipped_setting_keeps_the_initial_copy_and_lowers_the_sibling():
    main, shipped = _him_against("broundbai"), _him_against("broundbai", **Records.against)
    assert shipped[0] > main[0] >= RecordScheme.threshold  # the initial copy: above main's score (initial_score)
    assert shipped[1] < main[1]  # a sibling of another first letter: lower than on main
    # a sibling of the same first letter and about the same length is excused (the rule's blind spot)
    assert _him_against(**Records.against)[1] == _him_against()[1]
