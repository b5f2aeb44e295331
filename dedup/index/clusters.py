"""Pairs -> groups that hold together: star clustering in key order, decisions as hard constraints.

Connected components of independently accepted pairs chain: A~B, B~C and C~D put A and D in one
group though they share nothing, and on a table of form letters one noisy link after another
joins hundreds of unrelated letters. Here a row joins a group only when it is close to the group,
not to one member of a chain: to most of the group's first rows (its *head*: the centre, its
first row in key order, and the next two):

- rows are taken in key order; a row looks at the groups of its earlier partners (its pairs with
  rows of lower key) and tries them in the order of their centres;
- it joins the first group whose head it mostly matches (1 of 1, 2 of 2, 2 of 3; a pair found
  with a head row was verified already, the others are verified now through ``check``, the
  recipe's own verifier: the seam that keeps clustering apart from how pairs are scored), and
  where no member was decided "different" from it (cannot-link);
- a row that joins no group starts one: it is a centre, and stays one;
- then a pair decided "same" joins the two rows' groups, unless a row of one was decided
  "different" from a row of the other (a "different" always wins).

A head is more forgiving than the centre alone (a group whose first row is a corrupted copy still
takes the clean copies that match its other rows) and as strict against chains (the next link of a
chain matches one head row, not most).

Gathering (``gather``, issue 22; record and text tables): a corrupted copy whose only matches are later copies starts
a group no row joins, since a row looks back, never forward; when a later row then joins a group,
it brings such earlier partners of its own that are still alone, each checked against the group's
head like a later row. On the tuning persons with several copies each this took star clustering's
recall from 0.968 to 0.985 (5,000 rows; bench/quality/records/sweep_gather.py); on the tuning
petitions (collective copies filed before the copy that ties them) 0.9585 to 0.9647
(bench/quality/recall_s35_sweep.py).

Merging (``merge``, issue 22; text and record tables): two copies of one petition can each start a group
before a copy close to both exists (the second's centre failed the first group's head rule when
that head was still one row), and a row joins only the first group whose head it matches. So when
a row joins a group, each later-centred group holding another of its partners is merged in when
the row matches half of that group's head and a third (MERGE_SHARE) of the pairs of the two heads verify. It is
decided when the row is placed, from the groups the rows before it made, and the link it merged
by is stored as a pair: re-placing a stored group's rows from its pairs merges it again. On the
tuning petitions recall 0.9647 to 0.9775, no other tuning set changed (half: 0.9720)
(bench/quality/recall_s37_sweep.py); record tables (two groups of one person): tuning F1 the same or
higher on every set, held-out persons with copies 0.985 to 0.987 at 20k (bench/results/recmerge-s37.md).

Widening (``widen``, issue 22 stop 38; text tables): a copy a few typos from each of the head's
copies matches 0 or 1 of the first three rows and stays alone though it matches most of the
group's other copies. Such a row, failing every head, joins the first group (centre order) more
than half of whose first WIDE rows it matches, at least two; a chain's next link matches one or two.
On the tuning petitions recall 0.9775 to 0.9822, no other tuning set changed
(bench/quality/recall_s38_sweep.py, bench/results/petrecall-s38.md).

Near widening (``near``, issue 22 stop 40; text tables): a noisy copy of a mass petition may match
none or one of the head's rows at the bar and its other matches scatter over the group, most of
its similarities to the group's rows just under the bar (0.70 where the bar is 0.75): it stays alone
with accepted links into the group. So widening, as a row is placed and as it is gathered, also
counts the first WIDE rows that the recipe's verifier holds with its bar lowered by ``near`` (every
other rule as it is), once the row matches one of them at the bar: more than NEAR_SHARE of them, at
least NEAR_LEAST, and it joins (bench/quality/textjoin_s40_sweep.py, bench/results/textjoin-s40.md).

A row left alone (``alone``, issue 22, record tables): a sparse or corrupted copy may match the
group's first row but not the other head rows (1 of 3): it would start a group of its own. When
its pair with the head row it matched scores the recipe's ``alone`` bar (Records.alone), it joins
that group instead, as it is placed or gathered, from the same rows the head rule reads. On the
tuning persons F1 rose on 14 of 16 sets (bench/results/persons-s38.md).

Why this shape: a row's place depends only on the rows before it (and, gathered, on the row that
gathered it), so a group's head is always its lowest keys and the stored groups are all the state
a later run needs (rows appended in key order are placed exactly as a full run places them;
dedup.runs.incremental re-places the rows of the groups a batch touches). The work is bounded per row: one verification per candidate centre,
usually none (a row's pair is mostly with the centre itself), so 50,000 copies of one petition are
one group at the cost of a dictionary look-up each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .cluster_odd import Odd, lone_gathered, lone_link
from .decisions import DIFFERENT, apply_decisions, verdicts
from .groups import Group, Pair, linked_groups
from .keys import key_sort

Check = Callable[[list[tuple[str, str]]], list[bool]]  # (centre, row) pairs -> whether each holds


QUORUM = 3  # a row is checked against a group's first this many rows (its head)
MERGE_SHARE = 1 / 3  # merging: the share of the pairs of two groups' heads that must verify (recall_s37_sweep.py)
WIDE = 9  # widening: a row the heads left alone is checked against a group's first this many rows (recall_s38_sweep.py)
NEAR_SHARE = 0.5  # near widening: the share of those rows it must match, some at the lowered bar (textjoin_s40_sweep.py)
NEAR_LEAST = 4  # ... and at least this many of them (a group of three rows: never)


def need_of(head: int) -> int:
    """How many rows of a head of ``head`` rows a row must match to join: half, at least one
    (1 of 1, 1 of 2, 2 of 3)."""
    return (head + 1) // 2


def star_clusters(pairs: Iterable[Pair], rank: Callable[[str], object], check: Check,
                  different: dict[str, set[str]] | None = None,
                  same: set[tuple[str, str]] | frozenset[tuple[str, str]] = frozenset(),
                  gather: bool = False, merge: bool = False, widen: bool = False, near: Check | None = None
                  ) -> list[list[str]]:
    """The clusters (rows in key order, centre first) of two or more rows that ``pairs`` make.

    ``rank``: a key's sort key (key order); ``check``: verifies (member, row) pairs; ``different``:
    key -> keys decided different from it (never in one cluster); ``same``: pairs decided the same
    (lower key first; they join without the check, if no "different" forbids it; ``cluster``
    joins the groups of such pairs afterwards instead); ``gather``, ``merge``, ``widen``, ``near``: as ``cluster``."""
    return _star(pairs, rank, check, different or {}, same, gather=gather, merge=merge, widen=widen, near=near)[0]


def _star(pairs, rank, check: Check, different: dict[str, set[str]], same, settled=None, gather: bool = False,
          merge: bool = False, widen: bool = False, alone: Check | None = None, near: Check | None = None,
          odd: Odd | None = None) -> tuple[list[list[str]], dict[str, str], list[tuple[str, str]]]:
    """(clusters, row -> the member whose link placed it, the links that merged two groups).
    ``settled``: row -> the head it was placed against before (a stored group): facing the same
    head, it joins without a check; ``gather``: a row that joins a group brings its earlier
    partners left alone (``_gather``); ``merge``: and joins the later-centred groups of its
    partners whose heads match it and the group's head (``_merge``); ``widen``: a row no head holds
    joins a group most of whose first WIDE rows it matches (``_widened``); ``alone``: scores (head row,
    row) pairs: a row matching one head row this well joins its group (record tables); ``near``: verifies
    (member, row) pairs at a lower bar, which widening then counts too (``_wide``)."""
    settled = settled or {}
    earlier: dict[str, list[str]] = {}
    for p in pairs:
        a, b = (p.a, p.b) if rank(p.a) <= rank(p.b) else (p.b, p.a)
        if a != b:
            earlier.setdefault(b, []).append(a)
            earlier.setdefault(a, [])
    centre_of: dict[str, str] = {}
    members: dict[str, list[str]] = {}
    via: dict[str, str] = {}
    bridges: list[tuple[str, str]] = []
    for u in sorted(earlier, key=rank):
        centre, link = _place(u, earlier[u], centre_of, members, rank, check, different.get(u, ()), same,
                              settled.get(u), widen, alone, near, odd)
        centre_of[u] = centre
        members.setdefault(centre, []).append(u)
        if link is not None:
            via[u] = link
            if merge:
                bridges += _merge(u, earlier[u], centre, centre_of, members, rank, check, different)
            if gather:
                _gather(u, earlier[u], centre, centre_of, members, via, rank, check, different, alone, near, odd)
    return [m for m in members.values() if len(m) > 1], via, bridges


def _merge(u: str, partners: list[str], centre: str, centre_of: dict[str, str], members: dict[str, list[str]],
           rank, check: Check, different: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Row ``u`` has just joined ``centre``'s group: each other group of two or more rows that holds
    a partner of ``u`` (a later centre: ``u`` tried it after this one) is merged into this one when
    ``u`` matches half of its head as a joining row would, and a third (``MERGE_SHARE``) of the pairs of the two heads
    verify (two groups of one petition, each started by its own copy), and no member of one was
    decided different from a member of the other. Done when ``u`` is placed, from the groups as
    the rows before ``u`` made them, so a full run and a full then incremental one merge alike;
    the bridge (``u``, the head row it matched) is the merged group's link. Returns the bridges."""
    direct = set(partners)
    bridges = []
    for c in sorted({centre_of[v] for v in partners} - {centre}, key=rank):
        group, other = members[centre], members.get(c, ())
        if centre_of.get(c) != c or len(other) < 2 or rank(c) < rank(centre):
            continue
        if any(m in different.get(o, ()) for o in other for m in group):
            continue
        head = other[:QUORUM]
        held = _held(u, head, direct, check)
        if len(held) < need_of(len(head)):
            continue
        mine = [m for m in group[:QUORUM] if m != u]
        cross = [(a, b) for a in mine for b in head]
        if sum(check(cross)) < MERGE_SHARE * len(cross):
            continue
        for m in other:
            centre_of[m] = centre
        members[centre] = sorted(group + list(other), key=rank)
        del members[c]
        bridges.append((min(held, key=rank), u))
    return bridges


def _gather(u: str, partners: list[str], centre: str, centre_of: dict[str, str], members: dict[str, list[str]],
            via: dict[str, str], rank, check: Check, different: dict[str, set[str]], alone: Check | None = None,
            near: Check | None = None, odd: Odd | None = None) -> None:
    """Row ``u`` has just joined ``centre``'s group: each earlier partner of ``u`` left alone (a
    centre no row joined, its own partners all coming after it: a corrupted copy that only a later
    copy matches) joins the group too when it matches half of the group's head, as a later row
    would (or through ``alone``; or, with ``near``, widening or near widening against the group's
    first WIDE rows as they are: ``_wide``), and no member was decided different from it. It takes
    its place in key order, so a group's head stays its lowest keys; the group is still decided by its rows and their pairs
    alone (a full run and a full then incremental one gather alike)."""
    for v in sorted(partners, key=rank):
        if v == centre or centre_of[v] != v or len(members[v]) > 1:
            continue
        group = members[centre]
        if any(m in different.get(v, ()) for m in group):
            continue
        head = group[:QUORUM]
        held = _held(v, head, {u}, check)
        if len(held) < need_of(len(head)) and not (alone is not None and held and alone([(held[0], v)])[0]) \
                and not (near is not None and len(group) >= QUORUM and _wide(v, group[:WIDE], {u}, check, near)):
            continue
        if odd is not None and lone_gathered(v, u, held, group, odd, check):  # (cluster_odd)
            continue
        del members[v]
        centre_of[v] = centre
        group.insert(next((n for n, m in enumerate(group) if rank(m) > rank(v)), len(group)), v)
        via[v] = u


def _place(u: str, partners: list[str], centre_of: dict[str, str], members: dict[str, list[str]], rank,
           check: Check, apart: Iterable[str], same, before: tuple[str, ...] | None = None, widen: bool = False,
           alone: Check | None = None, near: Check | None = None, odd: Odd | None = None) -> tuple[str, str | None]:
    """The centre of the group row ``u`` joins and the member that placed it (``u`` and None:
    it starts a group). A group holds ``u`` when ``u`` matches half of its first QUORUM rows (a
    pair found with one of them was verified already; the others are verified only when needed);
    failing every head, ``alone`` (record tables): the first group whose head row ``u`` matched scores
    that pair this well; ``widen`` (text tables): the first group most of whose first WIDE rows it matches
    (``near``: some of them at a lower bar)."""
    if not partners:
        return u, None
    barred = {centre_of[k] for k in apart if k in centre_of} if apart else ()
    direct = set(partners)
    centres = {centre_of[v] for v in partners}
    short: list[tuple[str, str]] = []  # (centre, the head row held) of the heads matched below half
    for c in sorted(centres, key=rank) if len(centres) > 1 else centres:
        if c in barred:
            continue
        forced = [v for v in partners if centre_of[v] == c and (v, u) in same] if same else ()
        if forced:
            return c, forced[0]
        head = members[c][:QUORUM]
        held = [m for m in head if m in direct]
        if before is not None and held and tuple(head) == before:  # checked against this head before
            return c, min(held, key=rank)
        need = need_of(len(head))
        if len(held) < need:
            held = _held(u, head, direct, check)
        if held and odd is not None and lone_link(u, c, held, partners, centre_of, members, odd, check):  # (cluster_odd)
            continue
        if len(held) >= need:
            return c, min(held, key=rank)
        if held:
            short.append((c, min(held, key=rank)))
    if alone is not None and short:  # no head matched by half: a strong pair to one head row will do
        for (c, m), ok in zip(short, alone([(m, u) for _, m in short])):
            if ok:
                return c, m
    if widen:
        return _widened(u, direct, centres, members, rank, check, barred, near)
    return u, None


def _held(u: str, rows: list[str], direct, check: Check) -> list[str]:
    """The rows of ``rows`` that row ``u`` matches: those it has a pair with already (``direct``),
    then the others as ``check`` verifies them now (none asked when there are none)."""
    held = [m for m in rows if m in direct]
    rest = [m for m in rows if m not in direct]
    if rest:
        held += [m for m, ok in zip(rest, check([(m, u) for m in rest])) if ok]
    return held


def _widened(u: str, direct: set[str], centres: set[str], members: dict[str, list[str]], rank, check: Check,
             barred, near: Check | None = None) -> tuple[str, str | None]:
    """Row ``u`` matched no group's head (0 or 1 of 3): it joins the first group (in centre order,
    three rows or more) where it matches more than half of the first WIDE rows, at least two. One
    copy of a petition a few typos from the head's copies but matching most of the group's other
    copies is one of them; a chain's next link matches one or two rows, not most of nine. Decided
    from the group as the rows before ``u`` made it, like the head rule (incremental runs re-place
    the group's rows alike); on the tuning petitions recall 0.9775 to 0.9822 (recall_s38_sweep.py).
    With ``near``, near widening too, group by group (``_wide``)."""
    for c in sorted(centres, key=rank):
        rows = members[c][:WIDE]
        if c in barred or len(rows) < QUORUM:
            continue
        held = _wide(u, rows, direct, check, near)
        if held:
            return c, min(held, key=rank)
    return u, None


def _wide(u: str, rows: list[str], direct, check: Check, near: Check | None) -> list[str]:
    """The rows of ``rows`` (a group's first WIDE) that row ``u`` matches, when it matches more than
    half, at least two (widening); or, with ``near`` and one of them matched, when with the others
    ``near`` holds (the verifier at a lower bar) it matches more than NEAR_SHARE, at least NEAR_LEAST: a noisy
    copy of a mass petition just under the bar with most copies, not a chain's next link. Else none."""
    held = _held(u, rows, direct, check)
    count = len(held)
    if count >= 2 and 2 * count > len(rows):
        return held
    if near is None or not held:
        return []
    count += sum(near([(m, u) for m in rows if m not in held]))
    return held if count >= NEAR_LEAST and count > NEAR_SHARE * len(rows) else []


def star_groups(clusters: list[list[str]], fp: dict[str, int], via: dict[str, str] | None = None,
                links: Iterable[tuple[str, str]] = ()) -> list[Group]:
    """Unnumbered groups (id 0) of clusters, in order of their lowest keys: distances to the
    first row, and a pair a member: its link to the member that placed it (``via``), or for the
    first row of a group merged in by a "same" decision, that decision's pair (``links``)."""
    via = via or {}
    joined: dict[str, list[tuple[str, str]]] = {}
    for a, b in links:
        joined.setdefault(a, []).append((a, b))
    out = []
    for keys in clusters:
        c = keys[0]
        dist = [(fp[k] ^ fp[c]).bit_count() for k in keys]
        # each star is a tree of via links from its centre; the "same" pairs join the stars
        pairs = [ordered_pair(via[k], k, fp) for k in keys[1:] if k in via] + \
                [ordered_pair(a, b, fp) for k in keys for a, b in joined.get(k, ())]
        out.append(Group(0, list(keys), dist, sorted(set(pairs), key=lambda p: (key_sort(p.a), key_sort(p.b)))))
    return out


def _merged(clusters: list[list[str]], same, different: dict[str, set[str]]) -> tuple[list[list[str]], list]:
    """The clusters joined by the pairs decided "same" (an unclustered row is a cluster of its own),
    unless a row of one was decided different from a row of the other; with the pairs that joined."""
    of: dict[str, int] = {k: i for i, c in enumerate(clusters) for k in c}
    rows = [list(c) for c in clusters]
    used = []
    for a, b in sorted(same, key=lambda p: (key_sort(p[0]), key_sort(p[1]))):
        for k in (a, b):
            if k not in of:
                of[k] = len(rows)
                rows.append([k])
        i, j = of[a], of[b]
        if i == j or any(y in different.get(x, ()) for x in rows[i] for y in rows[j]):
            continue
        for k in rows[j]:
            of[k] = i
        rows[i] += rows[j]
        rows[j] = []
        used.append((a, b))
    out = [sorted(r, key=key_sort) for r in rows if len(r) > 1]
    return sorted(out, key=lambda r: key_sort(r[0])), used


def ordered_pair(a: str, b: str, fp: dict[str, int]) -> Pair:
    """The pair of rows ``a`` and ``b``, lower key first, with their fingerprints' distance."""
    a, b = (a, b) if key_sort(a) <= key_sort(b) else (b, a)
    return Pair(a, b, (fp[a] ^ fp[b]).bit_count())


def cluster(pairs: list[Pair], fp: dict[str, int], check: Check | None, decisions=(),
            settled: Iterable[Group] = (), gather: bool = False, merge: bool = False, widen: bool = False,
            alone: Check | None = None, near: Check | None = None, odd: Odd | None = None) -> list[Group]:
    """Unnumbered groups of verified ``pairs`` after the ``decisions`` (dedup.index.decisions), in
    order of their lowest key: star clusters with ``check``, connected components without it.
    ``fp``: key -> fingerprint of every row in the pairs (and of the decided rows); ``settled``:
    stored groups whose rows were placed by an earlier run (a row facing the same head rows
    again joins without being checked again: an incremental run reads no sketch for it);
    ``gather``: a row joining a group brings its earlier partners that were left alone (record
    tables: a corrupted copy matched only by a later one); ``merge``: a row joining a group joins
    to it the other groups of its partners whose heads it and the group's head match (``_merge``);
    ``widen``: a row no group's head holds joins a group most of whose first WIDE rows it matches;
    ``near``: (member, row) pairs verified at a lower bar, which widening and gathering count too (``_wide``);
    ``odd``: a row's lone link into a group is no way in when a row is unlike all the others (cluster_odd)."""
    pairs = apply_decisions(pairs, decisions, fp)
    if check is None:
        return linked_groups(pairs, fp)
    different: dict[str, set[str]] = {}
    same: set[tuple[str, str]] = set()
    for (a, b), verdict in verdicts(decisions).items():
        if verdict == DIFFERENT:
            different.setdefault(a, set()).add(b)
            different.setdefault(b, set()).add(a)
        elif a in fp and b in fp:  # as apply_decisions: a row without a fingerprint is in no group
            same.add((a, b))
    # a pair decided "same" is no link to place a row by: it joins the two rows' groups afterwards
    found = [p for p in pairs if (p.a, p.b) not in same and (p.b, p.a) not in same]
    position = {k: i for i, k in enumerate(sorted({k for p in found for k in (p.a, p.b)}, key=key_sort))}
    before = {k: tuple(g.keys[:min(i, QUORUM)]) for g in settled for i, k in enumerate(g.keys) if i}
    clusters, via, bridges = _star(found, position.__getitem__, check, different, (), before, gather, merge,
                                   widen, alone, near, odd)
    if same:
        clusters, links = _merged(clusters, same, different)
        return star_groups(clusters, fp, via, [*bridges, *links])
    return star_groups(clusters, fp, via, bridges)
